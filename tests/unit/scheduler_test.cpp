// The scheduler driven in simulated time: a real Evaluator over a fake command runner, a
// simulated executor and a FakeClock (tests/unit/simulated_executor.hpp); no process starts.
// Expectations come from the scheduling rules (docs/architecture.md, "Record"): at most
// --jobs builds at once; with process timing no measurement beside a build and one
// measurement at a time; with reported timing builds overlap measurements; lanes measure
// side by side, each pinned to its GPU; the budget stops proposals (the time limit's other
// effects: scheduler_time_limit_test);
// an interrupt stops the study and nothing cut short is recorded; failures are data.
#include "study/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "unit/scheduler_harness.hpp"

namespace routetune {
namespace {

TEST_F(SchedulerHarness, ProcessTimingBuildsInParallelAndNeverMeasuresBesideABuild) {
    start(kSixCandidates, SchedulerOptions{3, 1, false}, routes_budget(100));
    bench.runner.routes["-a=2"].build_s = 3;  // the others of its batch are built (and could be measured) first
    bench.runner.routes["-b=on"].build_s = 2;
    ASSERT_TRUE(run_study());
    EXPECT_EQ(committed_routes(), (std::set<std::string>{"", "-a=1", "-a=2", "-a=3", "-b=on"}));
    std::vector<Interval> builds = of_kind(true);
    std::vector<Interval> measurements = of_kind(false);
    EXPECT_EQ(builds.size(), 5u);
    EXPECT_EQ(most_at_once(builds), 3u) << "--jobs 3 builds at once, no more";
    EXPECT_EQ(most_at_once(measurements), 1u);
    for (const auto& m : measurements) {
        for (const auto& b : builds) EXPECT_FALSE(overlap(m, b)) << m.route << " measured beside the build of " << b.route;
    }
    EXPECT_EQ(ledger->evaluations().front().route.to_string(), "") << "the default is committed first";
}

TEST_F(SchedulerHarness, MeasurementsRunInTheOrderTheStrategyProposed) {
    start(kSixCandidates, SchedulerOptions{4, 1, false}, routes_budget(100));
    bench.runner.routes["-a=1"].build_s = 5;  // built last, still measured first
    ASSERT_TRUE(run_study());
    std::vector<std::string> order;
    for (const auto& i : of_kind(false)) order.push_back(i.route);
    std::vector<std::string> proposed;
    for (const auto& i : of_kind(true)) proposed.push_back(i.route);
    proposed.erase(std::find(proposed.begin(), proposed.end(), ""));
    order.erase(order.begin());
    EXPECT_EQ(order, proposed);
}

TEST_F(SchedulerHarness, ReportedTimingLetsBuildsRunDuringMeasurements) {
    bench.spec.timing.source = "reported";
    bench.spec.run.command = {"{artifact}", "{metrics}"};
    start(kSixCandidates, SchedulerOptions{2, 1, true}, routes_budget(100));
    bench.runner.fallback.run_s = 1;  // measurements as long as builds
    ASSERT_TRUE(run_study());
    EXPECT_EQ(committed_routes().size(), 5u);
    std::vector<Interval> builds = of_kind(true);
    std::vector<Interval> measurements = of_kind(false);
    EXPECT_LE(most_at_once(builds), 2u);
    EXPECT_EQ(most_at_once(measurements), 1u);
    bool overlapped = false;
    for (const auto& m : measurements) {
        for (const auto& b : builds) overlapped = overlapped || overlap(m, b);
    }
    EXPECT_TRUE(overlapped) << "with reported timing a build runs during a measurement";
}

// Issue 13: with overlap, a build slot freed while a measurement runs is refilled at once,
// during the default's measurement too; nothing waits for the measurement to end.
TEST_F(SchedulerHarness, ReportedTimingRefillsAFreedBuildSlotAtOnce) {
    bench.spec.timing.source = "reported";
    bench.spec.run.command = {"{artifact}", "{metrics}"};
    start(kSixCandidates, SchedulerOptions{2, 1, true}, routes_budget(100), "full");  // 8 routes
    bench.runner.fallback.run_s = 0.2;  // 3 runs: a measurement takes 0.6 s, a build 1 s
    bench.runner.routes["-a=1"].build_s = 0.5;  // its slot frees while the default still builds
    ASSERT_TRUE(run_study());
    std::vector<Interval> builds = of_kind(true);
    ASSERT_GE(builds.size(), 8u);
    EXPECT_EQ(most_at_once(builds), 2u);
    for (const auto& b : builds) {
        bool at_a_free_slot = b.start_s == builds.front().start_s || std::any_of(builds.begin(), builds.end(), [&](const Interval& other) {
                                  return other.end_s == b.start_s;
                              });
        EXPECT_TRUE(at_a_free_slot) << b.route << " started at " << b.start_s << ", when no build had just ended";
    }
}

// A strategy that proposes from each result (as auto's growth does), over another's proposals.
class SequentialStrategy : public Strategy {
public:
    explicit SequentialStrategy(std::unique_ptr<Strategy> inner) : inner_(std::move(inner)) {}
    std::string name() const override { return inner_->name(); }
    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        return inner_->propose(history, max_count);
    }
    std::string phase_of(const Route& route, const SearchHistory& history) const override {
        return inner_->phase_of(route, history);
    }
    bool sequential() const override { return true; }

private:
    std::unique_ptr<Strategy> inner_;
};

// Builds quicker than measurements (0.1 s against 3 runs of 1 s), --jobs 2, one lane: the most
// candidates in flight at once, each from its build's start to its measurement's end.
class RunAhead : public SchedulerHarness {
protected:
    std::size_t most_in_flight(bool sequential) {
        use_reported_timing();
        start(kSixCandidates, SchedulerOptions{2, 1, true}, routes_budget(100), "full");  // 8 routes
        if (sequential) {
            strategy = std::make_unique<SequentialStrategy>(std::move(strategy));
            scheduler = std::make_unique<Scheduler>(*executor, *strategy, *ledger, routes_budget(100), bench.clock,
                                                    SchedulerOptions{2, 1, true});
        }
        bench.runner.fallback.build_s = 0.1;
        bench.runner.fallback.run_s = 1;
        EXPECT_TRUE(run_study());
        EXPECT_EQ(committed_routes().size(), 8u);
        std::vector<Interval> candidates;
        std::vector<Interval> measurements = of_kind(false);
        for (const auto& b : of_kind(true)) {
            if (b.route.empty()) continue;
            Interval whole = b;
            for (const auto& m : measurements)
                if (m.route == b.route) whole.end_s = std::max(whole.end_s, m.end_s);
            candidates.push_back(whole);
        }
        return most_at_once(candidates);
    }
};

// A strategy that does not learn from each result gets up to 2 x jobs builds ahead of the lane.
TEST_F(RunAhead, BuildsRunUpToTwiceJobsAheadOfTheLane) { EXPECT_EQ(most_in_flight(false), 5u); }

// A sequential one (auto's growth) only jobs + lanes - 1: at most jobs + lanes routes are
// proposed without the results in flight, and the lane still never waits for a build.
TEST_F(RunAhead, ASequentialStrategyGetsOnlyTheBuildsThatKeepItsSlotsAndLaneBusy) {
    EXPECT_EQ(most_in_flight(true), 3u);
    std::vector<Interval> measurements = of_kind(false);
    for (std::size_t i = 1; i < measurements.size(); ++i)
        EXPECT_EQ(measurements[i].start_s, measurements[i - 1].end_s) << measurements[i].route << " waited for its build";
}

// With overlap a free lane takes whichever candidate is built, not only the oldest: a slow
// build (or, with a shared store, a queued candidate whose worker died) holds back no other.
TEST_F(SchedulerHarness, ReportedTimingMeasuresWhatIsBuiltWithoutWaitingForAnOlderBuild) {
    bench.spec.timing.source = "reported";
    bench.spec.run.command = {"{artifact}", "{metrics}"};
    start(kSixCandidates, SchedulerOptions{2, 1, true}, routes_budget(100));
    bench.runner.fallback.run_s = 0.2;
    bench.runner.routes["-a=1"].build_s = 5;  // proposed first, built last
    ASSERT_TRUE(run_study());
    EXPECT_EQ(committed_routes().size(), 5u);
    double slow_built = 0, first_other_measured = 1e9;
    for (const auto& i : executor->intervals()) {
        if (i.build && i.route == "-a=1") slow_built = i.end_s;
        if (!i.build && !i.route.empty() && i.route != "-a=1") first_other_measured = std::min(first_other_measured, i.start_s);
    }
    EXPECT_LT(first_other_measured, slow_built) << "the lane waited for the oldest build while others were built";
}

// Issue 13: with overlap, the lane takes the next built candidate before the finished
// measurement is committed, so the commit's fsync overlaps that measurement; each result is
// still committed before the next one is taken.
TEST_F(SchedulerHarness, ReportedTimingStartsTheNextMeasurementBeforeTheCommit) {
    bench.spec.timing.source = "reported";
    bench.spec.run.command = {"{artifact}", "{metrics}"};
    start(kSixCandidates, SchedulerOptions{2, 1, true}, routes_budget(100));
    bench.runner.fallback.build_s = 0.1;
    bench.runner.fallback.run_s = 1;  // the lane is the bottleneck: a built candidate always waits
    std::vector<std::pair<std::size_t, std::size_t>> at_commit;  // (committed, measurements started)
    ledger->on_progress([&](const StudyProgress& p) { at_commit.emplace_back(p.done, of_kind(false).size()); });
    ASSERT_TRUE(run_study());
    ASSERT_EQ(at_commit.size(), 5u) << "the default and 4 candidates";
    for (std::size_t i = 1; i + 1 < at_commit.size(); ++i)
        EXPECT_EQ(at_commit[i].second, at_commit[i].first + 1)
            << "commit " << at_commit[i].first << ": the next measurement had not started";
    EXPECT_EQ(at_commit.back().second, at_commit.back().first) << "nothing is left to measure at the last commit";
}

TEST_F(SchedulerHarness, LanesMeasureSideBySideEachOnItsOwnGpu) {
    use_reported_timing();
    start(kSixCandidates, SchedulerOptions{4, 2, true}, routes_budget(100));
    bench.runner.fallback.build_s = 0.1;
    bench.runner.fallback.run_s = 1;
    ASSERT_TRUE(run_study());
    EXPECT_EQ(committed_routes().size(), 5u);
    std::vector<Interval> lane_runs;
    for (const auto& m : of_kind(false)) {
        if (!m.route.empty()) lane_runs.push_back(m);
    }
    EXPECT_EQ(most_at_once(lane_runs), 2u) << "two lanes measure at once";
    for (const auto& a : lane_runs) {
        EXPECT_TRUE(a.lane == "0" || a.lane == "1") << a.route << " on lane '" << a.lane << "'";
        for (const auto& b : lane_runs) {
            if (&a != &b && overlap(a, b)) EXPECT_NE(a.lane, b.lane) << a.route << " and " << b.route << " share a GPU";
        }
    }
}

TEST_F(SchedulerHarness, MaxRoutesStopsProposalsCountingWhatIsInFlight) {
    start(kSixCandidates, SchedulerOptions{4, 1, false}, routes_budget(3));
    ASSERT_TRUE(run_study());
    EXPECT_EQ(of_kind(true).size(), 3u) << "--max-routes 3: the default and two candidates were built";
    EXPECT_EQ(ledger->candidates_done(), 2u);
}

TEST_F(SchedulerHarness, MaxRoutesCountsBuildsInFlightWhileMeasuring) {
    bench.spec.timing.source = "reported";
    bench.spec.run.command = {"{artifact}", "{metrics}"};
    start(kSixCandidates, SchedulerOptions{4, 1, true}, routes_budget(3));
    ASSERT_TRUE(run_study());
    EXPECT_EQ(of_kind(true).size(), 3u) << "builds running ahead during a measurement count against --max-routes";
}

TEST(StudyBudget, TheSpecsLimitsWithZeroTimeMeaningNone) {
    Budget both = study_budget(7, 30);
    EXPECT_EQ(both.max_routes, std::optional<std::size_t>(7));
    EXPECT_EQ(both.time_limit_s, std::optional<double>(30));
    EXPECT_FALSE(study_budget(7, 0).time_limit_s);
    EXPECT_EQ(study_budget(7, 0).next_batch(10, 5, 1e9), 2u);
    EXPECT_EQ(both.next_batch(10, 5, 30), 0u) << "spent at the time limit";
}

TEST_F(SchedulerHarness, AnInterruptStopsTheStudyAndTheCutRunIsNotRecorded) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, routes_budget(100));
    bench.runner.on_call = [](const fake::Call& call) {
        if (!call.build && call.flags == "-a=2") request_interrupt();
    };
    EXPECT_FALSE(run_study());
    EXPECT_EQ(committed("-a=2"), nullptr);
    EXPECT_EQ(store->find(Route::parse("-a=2").hash()), std::nullopt);
    EXPECT_NE(committed("-a=1"), nullptr) << "what finished before the interrupt stays";
    double interrupted_at = 0;
    for (const auto& i : of_kind(false)) {
        if (i.route == "-a=2") interrupted_at = i.start_s;
    }
    for (const auto& i : executor->intervals()) EXPECT_LE(i.start_s, interrupted_at) << i.route << " started after";
}

TEST_F(SchedulerHarness, AFailedBuildIsRecordedAndNeverRun) {
    start(kSixCandidates, SchedulerOptions{2, 1, false}, routes_budget(100));
    bench.runner.routes["-a=1"].build_exit = 1;
    ASSERT_TRUE(run_study());
    ASSERT_NE(committed("-a=1"), nullptr);
    EXPECT_EQ(committed("-a=1")->status, Status::BuildFailed);
    EXPECT_EQ(committed_routes().size(), 5u) << "the study goes on";
    for (const auto& call : bench.runner.calls()) EXPECT_FALSE(!call.build && call.flags == "-a=1");
}

TEST_F(SchedulerHarness, ARunPastTheRelativeTimeoutIsCutAndRecorded) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, routes_budget(100));
    bench.runner.routes["-a=3"].run_s = 30;  // the default takes 0.1 s: 10 x 0.1 s, at least 1 s
    ASSERT_TRUE(run_study());
    ASSERT_NE(committed("-a=3"), nullptr);
    EXPECT_EQ(committed("-a=3")->status, Status::RunTimeout);
    for (const auto& call : bench.runner.calls()) {
        if (!call.build && call.flags == "-a=3") EXPECT_DOUBLE_EQ(call.spec.timeout_s, 1.0);
    }
    for (const auto& i : of_kind(false)) {
        if (i.route == "-a=3") EXPECT_DOUBLE_EQ(i.end_s - i.start_s, 1.0) << "one cut run, no repeats";
    }
}

TEST_F(SchedulerHarness, AResumedStudyRunsOnlyWhatIsMissingAndCountsWhatWasDone) {
    {
        auto earlier = StudyStore::open(bench.paths.cache);
        Evaluation d;
        d.status = Status::Ok;
        d.timing.median_s = 0.1;
        earlier->record(d);
        Evaluation one;
        one.route = Route::parse("-a=1");
        one.status = Status::Ok;
        one.timing.median_s = 0.1;
        earlier->record(one);
        earlier->mark_pending(Route::parse("-a=2"), "fast", "2026-12-01T00:00:00Z");  // in flight at the kill
    }
    start(kSixCandidates, SchedulerOptions{2, 1, false}, routes_budget(4));
    ASSERT_TRUE(run_study());
    std::set<std::string> built;
    for (const auto& b : of_kind(true)) built.insert(b.route);
    EXPECT_EQ(built.count(""), 0u) << "the default is not evaluated again";
    EXPECT_EQ(built.count("-a=1"), 0u) << "a finished candidate is not evaluated again";
    EXPECT_EQ(built.count("-a=2"), 1u) << "a pending one is";
    EXPECT_EQ(built.size(), 2u) << "--max-routes 4 counts the default and the candidate finished before";
    EXPECT_EQ(ledger->candidates_done(), 3u);
}

}  // namespace
}  // namespace routetune
