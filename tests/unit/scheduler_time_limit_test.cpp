// The time limit in simulated time (tests/unit/scheduler_harness.hpp): once it has passed no
// build and no measurement starts; the measurements running finish and are committed; the
// builds running are cancelled (or, where the executor cannot cancel, waited for and never
// measured); every candidate built or building is left pending in the store, so a resumed
// study evaluates it; a build that failed before the limit is data and is committed; the
// default is always finished; the time the scheduler keeps free for the confirmation
// (keep_free) counts as spent, asked again after every commit. The clock starts at 1000 s, when
// the ledger begins.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "unit/scheduler_harness.hpp"

namespace routetune {
namespace {

constexpr double kStart = 1000;

class TimeLimit : public SchedulerHarness {
protected:
    Budget limit(double seconds) const {
        Budget budget = routes_budget(100);
        budget.time_limit_s = seconds;
        return budget;
    }

    // Reported timing: builds overlap measurements (one lane); builds 0.1 s, a measurement
    // 3 runs of 0.34 s (1.02 s).
    void start_overlapped(double seconds) {
        bench.spec.timing.source = "reported";
        bench.spec.run.command = {"{artifact}", "{metrics}"};
        start(kSixCandidates, SchedulerOptions{4, 1, true}, limit(seconds), "full");  // the default + 7
        bench.runner.fallback.build_s = 0.1;
        bench.runner.fallback.run_s = 0.34;
    }

    std::set<std::string> pending_routes() const {
        std::set<std::string> routes;
        for (const auto& e : store->evaluations()) {
            if (e.status == Status::Pending) routes.insert(e.route.to_string());
        }
        return routes;
    }

    std::set<std::string> routes_of(bool build) const {
        std::set<std::string> routes;
        for (const auto& i : of_kind(build)) routes.insert(i.route);
        return routes;
    }
};

TEST_F(TimeLimit, ProcessTimingCancelsTheBuildRunningAtTheLimit) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, limit(4.5));
    // The default takes 1.3 s, each candidate 1 s of build and 0.3 s of runs: builds start at
    // 0, 1.3, 2.6 and 3.9 s; the one started at 3.9 s would end at 4.9 s.
    ASSERT_TRUE(run_study());
    std::vector<Interval> builds = of_kind(true);
    ASSERT_EQ(builds.size(), 4u);
    EXPECT_TRUE(builds.back().cancelled) << builds.back().route << " ran past the limit";
    EXPECT_DOUBLE_EQ(builds.back().end_s, kStart + 4.5) << "cancelled at the limit, not at its end";
    for (const auto& m : of_kind(false)) EXPECT_LT(m.start_s, kStart + 4.5) << m.route << " measured after the limit";
    EXPECT_EQ(ledger->evaluations().size(), 3u) << "the default and the two candidates measured before the limit";
    EXPECT_EQ(pending_routes(), std::set<std::string>{builds.back().route});
    EXPECT_DOUBLE_EQ(bench.clock.now_s(), kStart + 4.5) << "the search ends at the limit";
}

TEST_F(TimeLimit, ABuildThatCannotBeCancelledIsWaitedForAndNeverMeasured) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, limit(4.5));
    executor->cancellable = false;
    ASSERT_TRUE(run_study());
    std::vector<Interval> builds = of_kind(true);
    ASSERT_EQ(builds.size(), 4u);
    EXPECT_FALSE(builds.back().cancelled);
    EXPECT_EQ(routes_of(false).count(builds.back().route), 0u) << "built after the limit, and measured";
    EXPECT_EQ(pending_routes(), std::set<std::string>{builds.back().route});
    EXPECT_DOUBLE_EQ(bench.clock.now_s(), kStart + 4.9) << "its build ran to its end";
}

TEST_F(TimeLimit, CandidatesBuiltAheadOfTheLaneAreLeftPendingAndTheRunningMeasurementIsCommitted) {
    start_overlapped(2.5);
    // All 7 candidates are built by 0.2 s, during the default's measurement (0.1 to 1.12 s);
    // the lane then measures one a 1.02 s: the second runs from 2.14 to 3.16 s, past the limit.
    ASSERT_TRUE(run_study());
    ASSERT_EQ(of_kind(true).size(), 8u);
    for (const auto& i : executor->intervals()) EXPECT_LT(i.start_s, kStart + 2.5) << i.route << " started after the limit";
    std::vector<Interval> measurements = of_kind(false);
    ASSERT_EQ(measurements.size(), 3u) << "the default and the candidates whose measurement began before the limit";
    EXPECT_GT(measurements.back().end_s, kStart + 2.5) << "a measurement ran across the limit";
    EXPECT_EQ(ledger->evaluations().size(), 3u) << "the measurement running at the limit is committed";
    EXPECT_NE(committed(measurements.back().route), nullptr);
    std::set<std::string> not_measured;
    for (const auto& route : routes_of(true)) {
        if (!routes_of(false).count(route)) not_measured.insert(route);
    }
    EXPECT_EQ(not_measured.size(), 5u);
    EXPECT_EQ(pending_routes(), not_measured) << "every built candidate not measured stays pending, nothing else";
    EXPECT_DOUBLE_EQ(bench.clock.now_s(), measurements.back().end_s) << "the search ends with the last measurement";
}

TEST_F(TimeLimit, ABuildThatFailedBeforeTheLimitIsCommittedWithoutAMeasurement) {
    start_overlapped(2.5);
    bench.runner.routes["-a=3 -b=on"].build_exit = 1;  // the last route of full's order
    ASSERT_TRUE(run_study());
    ASSERT_NE(committed("-a=3 -b=on"), nullptr) << "a finished build failure is data, not abandoned";
    EXPECT_EQ(committed("-a=3 -b=on")->status, Status::BuildFailed);
    EXPECT_EQ(routes_of(false).count("-a=3 -b=on"), 0u) << "it reached the lane before the limit: the test shows nothing";
    EXPECT_EQ(pending_routes().count("-a=3 -b=on"), 0u);
    EXPECT_EQ(pending_routes().size(), 4u);
}

TEST_F(TimeLimit, ALimitPassedDuringTheDefaultStillFinishesTheDefaultAndMeasuresNothingElse) {
    start_overlapped(0.5);
    ASSERT_TRUE(run_study());
    ASSERT_NE(ledger->default_evaluation(), std::nullopt);
    EXPECT_EQ(ledger->default_evaluation()->status, Status::Ok);
    EXPECT_EQ(routes_of(false), std::set<std::string>{""}) << "only the default was measured";
    EXPECT_EQ(ledger->evaluations().size(), 1u);
    EXPECT_EQ(pending_routes().size(), 7u);
}

TEST_F(TimeLimit, ProcessTimingCancelsTheBuildsBesideTheDefaultAndMeasuresTheDefaultAlone) {
    start(kSixCandidates, SchedulerOptions{3, 1, false}, limit(2));
    bench.runner.fallback.build_s = 5;
    bench.runner.routes[""].build_s = 1;
    ASSERT_TRUE(run_study());
    std::vector<Interval> measurements = of_kind(false);
    ASSERT_EQ(measurements.size(), 1u);
    EXPECT_DOUBLE_EQ(measurements.front().start_s, kStart + 2) << "the default waits for the builds' cancellation only";
    for (const auto& b : of_kind(true)) {
        if (b.route.empty()) continue;
        EXPECT_TRUE(b.cancelled) << b.route;
        EXPECT_FALSE(overlap(b, measurements.front())) << b.route << " built beside the default's measurement";
    }
    EXPECT_EQ(pending_routes().size(), 2u);
}

TEST_F(TimeLimit, TheLimitCountsFromTheCommandsStartNotTheLedgers) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, limit(4.5));
    ledger->count_from(kStart - 2);  // the command spent 2 s (discovery) before the ledger began
    // The limit ends at 2.5 s of the ledger's time: the default (to 1.3 s) and one candidate
    // (built to 2.3 s, measured to 2.6 s: the measurement in flight).
    ASSERT_TRUE(run_study());
    EXPECT_EQ(ledger->evaluations().size(), 2u);
    EXPECT_DOUBLE_EQ(bench.clock.now_s(), kStart + 2.6);
}

TEST_F(TimeLimit, TheSearchKeepsTheReserveFreeAndOnlyTheMeasurementInFlightRunsIntoIt) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, limit(10));
    scheduler->keep_free([] { return 5.0; });
    // Without the reserve the search would run to 10 s; with it nothing starts after 5 s. The
    // candidate built by 4.9 s is measured from 4.9 to 5.2 s: the measurement in flight, which
    // the reserve's own estimate covers.
    ASSERT_TRUE(run_study());
    for (const auto& i : executor->intervals()) EXPECT_LT(i.start_s, kStart + 5) << i.route << " started in the reserve";
    EXPECT_LE(bench.clock.now_s(), kStart + 5 + 0.3 + 1e-9) << "the search ran past the reserve by more than a measurement";
    EXPECT_EQ(ledger->evaluations().size(), 4u) << "the default and the three candidates measured before 5 s";
    EXPECT_DOUBLE_EQ(scheduler->reserved_s(), 5.0);
}

TEST_F(TimeLimit, TheReserveIsAskedAgainAfterEveryCommit) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, limit(10));
    // The confirmation's cost grows once two candidates are in (slower builds, say): 2 s, then 8 s.
    scheduler->keep_free([this] { return ledger->candidates_done() >= 2 ? 8.0 : 2.0; });
    ASSERT_TRUE(run_study());
    EXPECT_EQ(ledger->candidates_done(), 2u) << "the search went on after the reserve grew";
    EXPECT_LT(bench.clock.now_s(), kStart + 10 - 2) << "the search ran to the first reserve";
    EXPECT_DOUBLE_EQ(scheduler->reserved_s(), 8.0);
}

TEST_F(TimeLimit, AReserveLargerThanWhatTheDefaultLeavesSearchesNothing) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, limit(10));
    scheduler->keep_free([] { return 9.0; });  // the default ends at 1.3 s: 1.3 + 9 > 10
    ASSERT_TRUE(run_study());
    EXPECT_EQ(ledger->evaluations().size(), 1u) << "only the default";
    EXPECT_EQ(of_kind(true).size(), 1u) << "a candidate was built";
    EXPECT_TRUE(pending_routes().empty());
}

}  // namespace
}  // namespace routetune
