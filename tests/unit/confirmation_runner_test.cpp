// The confirmation's rules (docs/design.md, "A study" 6; docs/architecture.md, "Decide"): the
// default and the top candidates are re-measured interleaved, D C1 C2 ... in every round, so
// that a drift of the machine lands on every route alike, and a route wins only when the
// lower end of the bootstrap 95% interval of its speedup clears 1 + min_gain. The routes run
// through a real Evaluator over the fake command runner; no process starts.
#include "study/confirmation_runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>

#include <nlohmann/json.hpp>

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

    StudyOutcome decide(const std::vector<Evaluation>& candidates,
                        const std::function<void(ConfirmationRunner&)>& configure = {}) {
        evaluator = bench.evaluator();
        store = StudyStore::open(bench.paths.cache);
        baseline = bench.baseline(0.1);
        std::vector<Evaluation> all{searched("", 0.1)};
        all.insert(all.end(), candidates.begin(), candidates.end());
        ConfirmationRunner runner(*evaluator, baseline, bench.spec.timing);
        if (configure) configure(runner);
        return runner.decide(*store, all, all.front());
    }

    // decide() for a confirmation that must end by deadline_s on the bench's clock.
    StudyOutcome decide_by(const std::vector<Evaluation>& candidates, double deadline_s) {
        return decide(candidates, [&](ConfirmationRunner& r) { r.within(bench.clock, deadline_s); });
    }

    // Each run moves the bench's clock by the time it took (the fake runner starts nothing).
    void runs_take_time() {
        bench.runner.on_call = [this](const fake::Call& call) {
            if (call.build) return;
            const auto& routes = bench.runner.routes;
            bench.clock.advance(routes.count(call.flags) ? routes.at(call.flags).run_s : bench.runner.fallback.run_s);
        };
    }

    std::size_t builds() const {
        std::size_t count = 0;
        for (const auto& call : bench.runner.calls()) count += call.build;
        return count;
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

// Fast in its first rounds, then a run that times out: the samples it left are not a
// confirmation, and it cannot win on them.
TEST_F(Confirm, ARouteThatFailsARoundIsNotConfirmedOnTheSamplesItLeft) {
    bench.spec.timing.confirm_rounds = 5;
    bench.spec.timing.warmup = 0;
    bench.runner.routes["-a=1"].run_times = {0.05, 0.05, 0.05, 100};
    StudyOutcome outcome = decide({searched("-a=1", 0.05)});
    EXPECT_EQ(outcome.outcome, Outcome::DefaultStays) << outcome.message;
    EXPECT_NE(outcome.message.find("-a=1 (failed a confirmation run)"), std::string::npos) << outcome.message;
    std::optional<StudyConfirmation> confirmation = store->read_confirmation();
    ASSERT_TRUE(confirmation);
    EXPECT_TRUE(confirmation->candidates.empty()) << "a dropped route has no confirmation";
}

TEST_F(Confirm, OnFreshBuildsEachRouteIsBuiltConfirmBuildsTimesAndEveryBuildRunsInEveryRound) {
    bench.spec.timing.confirm_rebuild = true;
    bench.spec.timing.confirm_builds = 3;
    bench.spec.timing.confirm_rounds = 2;
    bench.runner.routes[""].build_run_s = {0.10, 0.13, 0.09};
    bench.runner.routes["-a=1"].build_run_s = {0.05, 0.05, 0.06};
    StudyOutcome outcome = decide({searched("-a=1", 0.05)});
    EXPECT_EQ(builds(), 6u) << "3 fresh builds of the default and of -a=1";
    std::vector<std::string> expected;
    for (int round = 0; round < 2 * 3; ++round) expected.insert(expected.end(), {"", "-a=1"});
    EXPECT_EQ(run_order(), expected) << "each round runs D C of every build";
    auto note = nlohmann::json::parse(store->read_note("confirmation_builds").value_or("{}"));  // the medians' record
    ASSERT_TRUE(note.contains("routes")) << note.dump();
    std::vector<double> medians = note["routes"]["-a=1"].get<std::vector<double>>();
    std::sort(medians.begin(), medians.end());
    EXPECT_EQ(medians, (std::vector<double>{0.05, 0.05, 0.06})) << "each build's own median";
    std::vector<double> default_medians = note["default"].get<std::vector<double>>();
    std::sort(default_medians.begin(), default_medians.end());
    EXPECT_EQ(default_medians, (std::vector<double>{0.09, 0.10, 0.13}));
    EXPECT_EQ(confirmed("-a=1").timing.samples_s.size(), 6u) << "the route's samples are all its builds'";
    EXPECT_NE(outcome.message.find("of 3 fresh builds each"), std::string::npos) << outcome.message;
    EXPECT_NE(outcome.message.find("the default's 3 fresh builds measured 90 to 130 ms (44.4% apart), wider than "
                                   "min_gain 2%"),
              std::string::npos)
        << outcome.message;
    for (const auto& entry : std::filesystem::directory_iterator(bench.paths.work))
        EXPECT_EQ(entry.path().filename().string().find("-build"), std::string::npos) << entry.path() << " left behind";
}

TEST_F(Confirm, ADefaultWhoseFreshBuildsAgreeIsNotCalledBuildDependent) {
    bench.spec.timing.confirm_rebuild = true;
    bench.spec.timing.confirm_builds = 3;
    bench.runner.routes[""].build_run_s = {0.10, 0.10, 0.101};
    bench.runner.routes["-a=1"].run_s = 0.05;
    StudyOutcome outcome = decide({searched("-a=1", 0.05)});
    EXPECT_NE(outcome.message.find("(1.0% apart)"), std::string::npos) << outcome.message;
    EXPECT_EQ(outcome.message.find("wider than"), std::string::npos) << outcome.message;
}

TEST_F(Confirm, NothingIsMeasuredWhenTheEstimatedCostDoesNotFitTheTimeLeft) {
    bench.runner.routes["-a=1"].run_s = 0.05;  // 5 rounds x 2 routes x the default's 0.1 s: 1 s
    StudyOutcome outcome = decide_by({searched("-a=1", 0.05)}, bench.clock.now_s() + 0.9);
    EXPECT_EQ(outcome.outcome, Outcome::Unfinished);
    EXPECT_NE(outcome.message.find("needs about 1 s (5 passes x 2 routes x 1 build x 0.1 s per run)"), std::string::npos)
        << outcome.message;
    EXPECT_TRUE(run_order().empty()) << "something was measured";
    EXPECT_FALSE(store->read_confirmation()) << "a confirmation was recorded";
}

TEST_F(Confirm, NoRoundStartsThatTheLastRoundSaysWouldEndPastTheDeadline) {
    runs_take_time();
    bench.runner.routes[""].run_s = 0.2;  // slower than the default's search time the estimate counts
    bench.runner.routes["-a=1"].run_s = 0.1;
    double deadline = bench.clock.now_s() + 1.0;  // the estimate (1 s) fits; rounds take 0.3 s
    StudyOutcome outcome = decide_by({searched("-a=1", 0.05)}, deadline);
    EXPECT_EQ(run_order().size(), 6u) << "3 rounds end by 0.9 s; a 4th would end at 1.2 s";
    EXPECT_LE(bench.clock.now_s(), deadline);
    ASSERT_TRUE(store->read_confirmation());
    EXPECT_EQ(store->read_confirmation()->rounds, 3);
    EXPECT_EQ(outcome.outcome, Outcome::Improved);
    EXPECT_NE(outcome.message.find("stopped after 3 of 5 rounds"), std::string::npos) << outcome.message;
}

TEST_F(Confirm, ALaterRoundRunsWhenItsRunsCostLessThanTheFirstRoundsDid) {
    // A warm process keeps a build's compile: its first run of a build costs 0.4 s, later ones 0.02 s.
    std::map<std::string, int> runs_of;
    bench.runner.on_call = [&](const fake::Call& call) {
        if (!call.build) bench.clock.advance(runs_of[call.flags]++ == 0 ? 0.4 : 0.02);
    };
    bench.spec.timing.confirm_rounds = 3;
    bench.runner.routes["-a=1"].run_s = 0.05;
    bench.runner.routes["-a=2"].run_s = 0.05;
    // The first round takes 1.2 s: another such would not fit, nor would the second round's rest
    // after its default's run at the first round's prices (1.22 + 0.8 s).
    double deadline = bench.clock.now_s() + 1.7;
    StudyOutcome outcome = decide_by({searched("-a=1", 0.05), searched("-a=2", 0.05)}, deadline);
    EXPECT_EQ(run_order().size(), 9u) << outcome.message;
    EXPECT_LE(bench.clock.now_s(), deadline);
    ASSERT_TRUE(store->read_confirmation());
    EXPECT_EQ(store->read_confirmation()->rounds, 3);
    EXPECT_EQ(outcome.message.find("stopped after"), std::string::npos) << outcome.message;
}

TEST_F(Confirm, ARoundCutShortByTheLimitIsNotPooled) {
    runs_take_time();
    bench.runner.routes[""].run_s = 0.2;
    bench.runner.routes["-a=1"].run_s = 0.1;
    double deadline = bench.clock.now_s() + 1.15;  // 3 rounds end at 0.9 s; the 4th's default run fits, its candidate's not
    StudyOutcome outcome = decide_by({searched("-a=1", 0.05)}, deadline);
    EXPECT_EQ(run_order().size(), 7u);
    EXPECT_LE(bench.clock.now_s(), deadline);
    ASSERT_TRUE(store->read_confirmation());
    EXPECT_EQ(store->read_confirmation()->rounds, 3);
    EXPECT_EQ(store->read_confirmation()->baseline->timing.samples_s.size(), 3u) << "the cut round's default run pooled";
    EXPECT_EQ(confirmed("-a=1").timing.samples_s.size(), 3u);
    EXPECT_NE(outcome.message.find("stopped after 3 of 5 rounds: the next would have ended past the time limit (its "
                                   "first 1 run measured, not pooled)"),
              std::string::npos)
        << outcome.message;
}

TEST_F(Confirm, ARoundWhoseRunsCostWhatTheyDidStopsOnceTheRestCannotFit) {
    runs_take_time();
    bench.runner.routes[""].run_s = 0.4;
    bench.runner.routes["-a=1"].run_s = 0.1;
    bench.runner.routes["-a=2"].run_s = 0.1;
    // Rounds of 0.6 s end at 0.6 and 1.2 s; in the third the default's run ends at 1.6 s, and the
    // two candidates' each fit alone (1.7 s) but not together (1.8 s): the round stops before the
    // first of them.
    double deadline = bench.clock.now_s() + 1.75;
    StudyOutcome outcome = decide_by({searched("-a=1", 0.05), searched("-a=2", 0.05)}, deadline);
    EXPECT_EQ(run_order().size(), 7u) << outcome.message;
    ASSERT_TRUE(store->read_confirmation());
    EXPECT_EQ(store->read_confirmation()->rounds, 2);
}

}  // namespace
}  // namespace routetune
