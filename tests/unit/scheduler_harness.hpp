// The scheduler's test harness: the whole stack of one simulated study (a real Evaluator over
// a fake command runner, the simulated executor, a FakeClock; tests/unit/simulated_executor.hpp)
// and helpers over the intervals it logged. Shared by scheduler_test and scheduler_time_limit_test.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "routetune/strategy.hpp"
#include "study/artifact_keeper.hpp"
#include "util/interrupt_guard.hpp"
#include "study/scheduler.hpp"
#include "unit/simulated_executor.hpp"
#include "unit/study_bench.hpp"

namespace routetune {

using fake::Interval;

// The whole stack of one simulated study; tests adjust bench before start().
class SchedulerHarness : public ::testing::Test {
protected:
    void SetUp() override { clear_interrupt(); }
    void TearDown() override {
        scheduler.reset();
        clear_interrupt();
    }

    void start(const std::string& routes, SchedulerOptions options, Budget budget, const std::string& search = "fast") {
        evaluator = bench.evaluator();
        store = StudyStore::open(bench.paths.cache);
        keeper = std::make_unique<ArtifactKeeper>(bench.paths, true, 3, 0.02);
        ledger = std::make_unique<StudyLedger>(*store, *keeper, bench.clock, bench.spec.timing.min_gain, 0,
                                               [this](const Evaluation& e) { return evaluator->run_identity(e); });
        ledger->load();
        expression = bench.expression(routes);
        strategy = make_strategy(search, expression, StrategyOptions{});
        executor = std::make_unique<fake::SimulatedExecutor>(*evaluator, bench.runner, bench.clock);
        scheduler = std::make_unique<Scheduler>(*executor, *strategy, *ledger, budget, bench.clock, options);
    }

    // Reported timing (a metrics file per run): measurements may overlap builds and use lanes.
    void use_reported_timing() {
        bench.spec.timing.source = "reported";
        bench.spec.run.command = {"{artifact}", "{metrics}"};
    }

    // The default route, then the search; false when interrupted.
    bool run_study() {
        if (!ledger->default_evaluation()) {
            RunBaseline golden;
            if (scheduler->evaluate_default(golden, [](const DefaultRecord&) {}) != Scheduler::DefaultEvaluation::Committed)
                return false;
        }
        baseline = bench.baseline(ledger->default_evaluation()->timing.median_s);
        return scheduler->search(baseline);
    }

    std::vector<Interval> of_kind(bool build) const {
        std::vector<Interval> picked;
        for (const auto& i : executor->intervals()) {
            if (i.build == build) picked.push_back(i);
        }
        return picked;
    }

    // The most intervals of the list running at one time (half-open [start, end)).
    static std::size_t most_at_once(const std::vector<Interval>& intervals) {
        std::size_t most = 0;
        for (const auto& at : intervals) {
            std::size_t running = std::count_if(intervals.begin(), intervals.end(), [&](const Interval& i) {
                return i.start_s <= at.start_s && at.start_s < i.end_s;
            });
            most = std::max(most, running);
        }
        return most;
    }

    static bool overlap(const Interval& a, const Interval& b) { return a.start_s < b.end_s && b.start_s < a.end_s; }

    std::set<std::string> committed_routes() const {
        std::set<std::string> routes;
        for (const auto& e : ledger->evaluations()) routes.insert(e.route.to_string());
        return routes;
    }

    const Evaluation* committed(const std::string& route) const {
        for (const auto& e : ledger->evaluations()) {
            if (e.route.to_string() == route) return &e;
        }
        return nullptr;
    }

    fake::StudyBench bench;
    std::unique_ptr<Evaluator> evaluator;
    std::unique_ptr<StudyStore> store;
    std::unique_ptr<ArtifactKeeper> keeper;
    std::unique_ptr<StudyLedger> ledger;
    Expression expression;
    std::unique_ptr<Strategy> strategy;
    std::unique_ptr<fake::SimulatedExecutor> executor;
    std::unique_ptr<Scheduler> scheduler;
    RunBaseline baseline;
};

inline Budget routes_budget(std::size_t max_routes) {
    Budget budget;
    budget.max_routes = max_routes;
    return budget;
}

inline constexpr const char* kSixCandidates = "-a=[0|1|2|3] -b=[on|off]";  // fast: default + 4 candidates

}  // namespace routetune
