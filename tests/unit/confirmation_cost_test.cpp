// What a confirmation costs (study/confirmation_cost.hpp): passes × builds × one run of each route
// (its own measured runs, the default's where it has none), plus the fresh builds in waves of
// --jobs at the slowest route's build time; the plan counts the routes the study would confirm
// now, the unfilled slots at the default's build and runs.
#include "study/confirmation_cost.hpp"

#include <gtest/gtest.h>

namespace routetune {
namespace {

TimingSpec timing(int rounds, int warmup, int top, bool rebuild, int builds) {
    TimingSpec t;
    t.confirm_rounds = rounds;
    t.warmup = warmup;
    t.confirm_top = top;
    t.confirm_rebuild = rebuild;
    t.confirm_builds = builds;
    t.min_gain = 0.02;
    return t;
}

// routes of equal runs, one per build time.
std::vector<RouteToConfirm> alike(const RunCost& run, const std::vector<double>& build_s) {
    std::vector<RouteToConfirm> routes;
    for (double b : build_s) routes.push_back({b, run});
    return routes;
}

Evaluation evaluation(const std::string& route, double median_s, double build_s) {
    Evaluation e;
    e.route = Route::parse(route);
    e.status = Status::Ok;
    e.timing.median_s = median_s;
    e.build_s = build_s;
    return e;
}

TEST(ConfirmationCost, RunsEveryBuildOfEveryRouteInEveryPassAndBuildsInWavesOfJobs) {
    ConfirmationCost cost = confirmation_cost(timing(2, 0, 2, true, 3), 4, alike(RunCost{1.5, 1.5}, {10, 30, 20}));
    EXPECT_EQ(cost.passes, 2);
    EXPECT_EQ(cost.routes, 3u);
    EXPECT_EQ(cost.builds, 3);
    EXPECT_EQ(cost.build_waves, 3u) << "9 builds, 4 at once";
    EXPECT_DOUBLE_EQ(cost.build_s, 30) << "a wave lasts its slowest build";
    EXPECT_DOUBLE_EQ(cost.total_s(), 2 * 3 * 3 * 1.5 + 3 * 30);
    EXPECT_EQ(cost.describe(), "2 passes x 3 routes x 3 builds x 1.5 s per run + 3 waves of fresh builds x 30 s");
}

TEST(ConfirmationCost, AWarmUpIsOnePassMoreAndKeptBuildsCostNothing) {
    ConfirmationCost cost = confirmation_cost(timing(10, 1, 3, false, 3), 8, alike(RunCost{0.2, 0.2}, {5, 5}));
    EXPECT_EQ(cost.passes, 11);
    EXPECT_EQ(cost.builds, 1) << "confirm_builds counts only on fresh builds";
    EXPECT_EQ(cost.build_waves, 0u);
    EXPECT_DOUBLE_EQ(cost.total_s(), 11 * 2 * 0.2);
}

TEST(ConfirmationCost, ThePlanCountsTheRoutesItWouldConfirmAndTheDefaultsBuildForEmptySlots) {
    Evaluation d = evaluation("", 1.0, 10);
    std::vector<Evaluation> evaluations{d, evaluation("-a=1", 0.5, 40), evaluation("-a=2", 0.995, 90)};
    // -a=2 is not min_gain faster: its slow build is not the confirmation's.
    ConfirmationCost cost = planned_confirmation(timing(2, 0, 3, true, 1), 1, RunCost{0.1, 0.1}, evaluations, d);
    EXPECT_EQ(cost.routes, 4u) << "the default, -a=1 and two slots the search may still fill";
    EXPECT_DOUBLE_EQ(cost.build_s, 40);
    EXPECT_EQ(cost.build_waves, 4u);
    RunCost run = default_run_cost(RunBaseline{{}, {{"a", 0.25}, {"b", 0.5}}});
    EXPECT_DOUBLE_EQ(run.repeat_s, 0.75) << "one run: every case once";
    EXPECT_DOUBLE_EQ(run.first_s, 0.75) << "no first run recorded: a first run costs a later one's";
}

TEST(ConfirmationCost, ABuildsFirstRunCostsWhatTheDefaultBuildsFirstRunCost) {
    RunBaseline baseline{{}, {{"a", 1.0}, {"b", 0.5}}};
    baseline.default_case_first_s = {{"a", 5.0}, {"b", 0.25}};
    RunCost run = default_run_cost(baseline);
    EXPECT_DOUBLE_EQ(run.first_s, 5.5) << "a: 5 s to load and run; b: never below its later runs' 0.5 s";
    EXPECT_DOUBLE_EQ(run.repeat_s, 1.5);
    ConfirmationCost cost = confirmation_cost(timing(2, 0, 2, true, 3), 9, alike(run, {30, 30, 30}));
    EXPECT_DOUBLE_EQ(cost.total_s(), 3 * 3 * (5.5 + 1 * 1.5) + 1 * 30) << "9 fresh builds, each loaded once";
    EXPECT_EQ(cost.describe(),
              "2 passes x 3 routes x 3 builds x 1.5 s per run (5.5 s a build's first) + 1 wave of fresh builds x 30 s");
    ConfirmationCost three = confirmation_cost(timing(3, 0, 2, true, 3), 9, alike(run, {30, 30, 30}));
    EXPECT_DOUBLE_EQ(three.total_s() - cost.total_s(), 3 * 3 * 1.5) << "one pass more: every build's later run";
}

// A freezing=on BERT build's first request in a warm process took 3.6 s on the H100, the
// default's 0.55 s: each route is priced at its own runs, and the plan takes them from the
// evaluations (the default's where a route has none recorded).
TEST(ConfirmationCost, EachRouteIsPricedAtItsOwnRuns) {
    RunCost cheap{0.55, 0.5}, dear{3.6, 0.6};
    ConfirmationCost cost = confirmation_cost(timing(2, 0, 2, true, 3), 9, {{30, cheap}, {30, cheap}, {40, dear}});
    EXPECT_DOUBLE_EQ(cost.total_s(), 3 * (0.55 + 0.5) * 2 + 3 * (3.6 + 0.6) + 1 * 40);
    EXPECT_EQ(cost.describe(),
              "2 passes x 3 routes x 3 builds x 0.5-0.6 s per run (0.55-3.6 s a build's first) + 1 wave of fresh builds x 40 s");
    ConfirmationCost crossed = confirmation_cost(timing(2, 0, 2, true, 3), 9, {{30, {0.5, 0.6}}, {30, {3.6, 0.5}}});
    EXPECT_EQ(crossed.describe(),
              "2 passes x 2 routes x 3 builds x 0.5-0.6 s per run (0.6-3.6 s a build's first) + 1 wave of fresh builds x 30 s")
        << "each range from its own lowest to its own highest (a first run never below its later runs)";
    Evaluation d = evaluation("", 1.0, 30);
    Evaluation frozen = evaluation("-a=1", 0.5, 40);
    frozen.run_first_s = dear.first_s;
    frozen.run_repeat_s = dear.repeat_s;
    Evaluation unrecorded = evaluation("-a=2", 0.6, 30);
    ConfirmationCost planned = planned_confirmation(timing(2, 0, 2, true, 3), 9, cheap, {d, frozen, unrecorded}, d);
    EXPECT_DOUBLE_EQ(planned.total_s(), cost.total_s()) << "-a=2 has no runs recorded: the default's";
    EXPECT_DOUBLE_EQ(route_run_cost(unrecorded, cheap).first_s, 0.55);
    EXPECT_DOUBLE_EQ(route_run_cost(frozen, cheap).first_s, 3.6);
}

}  // namespace
}  // namespace routetune
