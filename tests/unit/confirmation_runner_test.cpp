// The confirmation's rules (docs/design.md, "A study" 6; docs/architecture.md, "Decide"): the
// default and the top candidates are re-measured interleaved, D C1 C2 ... in every round, so
// that a drift of the machine lands on every route alike, and a route wins only when the
// lower end of the bootstrap 95% interval of its speedup clears 1 + min_gain. The routes run
// through a real Evaluator over the fake command runner; no process starts.
#include "study/confirmation_runner.hpp"

#include <gtest/gtest.h>

#include "unit/study_bench.hpp"

namespace routetune {
namespace {

class Confirm : public ::testing::Test {
protected:
    Evaluation searched(const std::string& route, double median_s) {
        Evaluation e;
        e.route = Route::parse(route);
        e.status = Status::Ok;
        e.timing.median_s = median_s;
        return e;
    }

    StudyOutcome decide(const std::vector<Evaluation>& candidates) {
        evaluator = bench.evaluator();
        store = StudyStore::open(bench.paths.cache);
        baseline = bench.baseline(0.1);
        std::vector<Evaluation> all{searched("", 0.1)};
        all.insert(all.end(), candidates.begin(), candidates.end());
        ConfirmationRunner runner(*evaluator, baseline, bench.spec.timing);
        return runner.decide(*store, all, all.front());
    }

    std::vector<std::string> run_order() const {
        std::vector<std::string> order;
        for (const auto& call : bench.runner.calls()) {
            if (!call.build) order.push_back(call.flags);
        }
        return order;
    }

    Confirmation confirmed(const std::string& route) const {
        std::optional<StudyConfirmation> confirmation = store->read_confirmation();
        if (confirmation) {
            for (const auto& r : confirmation->candidates) {
                if (r.route.to_string() == route) return r;
            }
        }
        ADD_FAILURE() << route << " not confirmed";
        return Confirmation{};
    }

    fake::StudyBench bench;
    std::unique_ptr<Evaluator> evaluator;
    std::unique_ptr<StudyStore> store;
    RunBaseline baseline;
};

TEST_F(Confirm, EveryRoundRunsTheDefaultThenEachCandidate) {
    bench.spec.timing.confirm_rounds = 4;
    bench.spec.timing.warmup = 1;
    bench.runner.routes["-a=1"].run_s = 0.05;
    bench.runner.routes["-a=2"].run_s = 0.06;
    decide({searched("-a=2", 0.06), searched("-a=1", 0.05)});
    std::vector<std::string> expected;
    for (int round = 0; round < 1 + 4; ++round) expected.insert(expected.end(), {"", "-a=1", "-a=2"});
    EXPECT_EQ(run_order(), expected) << "one warm-up pass, then 4 rounds of D C1 C2, fastest candidate first";
}

TEST_F(Confirm, AClearlyFasterRouteWinsWithTheSpeedupOfTheConfirmation) {
    bench.runner.routes["-a=1"].run_s = 0.05;
    StudyOutcome outcome = decide({searched("-a=1", 0.06)});
    EXPECT_EQ(outcome.outcome, Outcome::Improved);
    ASSERT_TRUE(outcome.winner);
    EXPECT_EQ(outcome.winner->to_string(), "-a=1");
    EXPECT_DOUBLE_EQ(outcome.speedup, 2.0) << "0.1 s / 0.05 s in the confirmation, not 0.1 / 0.06 from the search";
    EXPECT_DOUBLE_EQ(outcome.speedup_ci_low, 2.0);
    EXPECT_FALSE(outcome.artifact_sha256.empty());
}

TEST_F(Confirm, AMachineThatSpeedsUpDoesNotMakeAnEqualRouteWin) {
    // Both routes take 0.1 s; every run is 2% faster than the one before. Interleaved, each
    // candidate run follows a default run by one step: a speedup of about 1.02, below 1.05.
    // Measured as blocks (every default run first) the candidate would look 1.28x faster.
    bench.spec.timing.confirm_rounds = 10;
    bench.spec.timing.min_gain = 0.05;
    bench.runner.drift_per_run = 0.02;
    StudyOutcome outcome = decide({searched("-a=1", 0.08)});
    EXPECT_EQ(outcome.outcome, Outcome::DefaultStays) << outcome.message;
    EXPECT_LT(confirmed("-a=1").speedup, 1.05);
}

TEST_F(Confirm, TheBootstrapIntervalDecidesNotTheMedian) {
    // 6 of 10 runs take 0.07 s and 4 take 0.2 s: the median speedup is 0.1 / 0.07 = 1.43, but
    // resampled medians often land on 0.2 s, so the interval's lower end is far below 1.1.
    bench.spec.timing.confirm_rounds = 10;
    bench.spec.timing.min_gain = 0.1;
    bench.runner.routes["-a=1"].run_times = {0.07, 0.2, 0.07, 0.2, 0.07, 0.2, 0.07, 0.2, 0.07, 0.07};
    StudyOutcome outcome = decide({searched("-a=1", 0.07)});
    EXPECT_EQ(outcome.outcome, Outcome::DefaultStays) << outcome.message;
    EXPECT_NEAR(confirmed("-a=1").speedup, 0.1 / 0.07, 1e-9);
    EXPECT_LT(confirmed("-a=1").ci_low, 1.1);
}

TEST_F(Confirm, NoCandidateFastEnoughMeansTheDefaultStaysWithoutRunning) {
    bench.spec.timing.min_gain = 0.25;
    StudyOutcome outcome = decide({searched("-a=1", 0.09)});  // 1.11x < 1.25x
    EXPECT_EQ(outcome.outcome, Outcome::DefaultStays);
    EXPECT_TRUE(run_order().empty());
}

TEST_F(Confirm, ARouteThatFailsNowIsDroppedWithANote) {
    bench.runner.routes["-a=1"].build_exit = 1;
    StudyOutcome outcome = decide({searched("-a=1", 0.05)});
    EXPECT_EQ(outcome.outcome, Outcome::DefaultStays);
    EXPECT_NE(outcome.message.find("dropped: -a=1 (rebuild build_failed)"), std::string::npos) << outcome.message;
}

}  // namespace
}  // namespace routetune
