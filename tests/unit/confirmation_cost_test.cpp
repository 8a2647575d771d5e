// What a confirmation costs (study/confirmation_cost.hpp): passes × routes × builds × one run of
// the default, plus the fresh builds in waves of --jobs at the slowest route's build time; the
// plan counts the routes the study would confirm now, the unfilled slots at the default's build.
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

Evaluation evaluation(const std::string& route, double median_s, double build_s) {
    Evaluation e;
    e.route = Route::parse(route);
    e.status = Status::Ok;
    e.timing.median_s = median_s;
    e.build_s = build_s;
    return e;
}

TEST(ConfirmationCost, RunsEveryBuildOfEveryRouteInEveryPassAndBuildsInWavesOfJobs) {
    ConfirmationCost cost = confirmation_cost(timing(2, 0, 2, true, 3), 4, 1.5, {10, 30, 20});
    EXPECT_EQ(cost.passes, 2);
    EXPECT_EQ(cost.routes, 3u);
    EXPECT_EQ(cost.builds, 3);
    EXPECT_EQ(cost.build_waves, 3u) << "9 builds, 4 at once";
    EXPECT_DOUBLE_EQ(cost.build_s, 30) << "a wave lasts its slowest build";
    EXPECT_DOUBLE_EQ(cost.total_s(), 2 * 3 * 3 * 1.5 + 3 * 30);
    EXPECT_EQ(cost.describe(), "2 passes x 3 routes x 3 builds x 1.5 s per run + 3 waves of fresh builds x 30 s");
}

TEST(ConfirmationCost, AWarmUpIsOnePassMoreAndKeptBuildsCostNothing) {
    ConfirmationCost cost = confirmation_cost(timing(10, 1, 3, false, 3), 8, 0.2, {5, 5});
    EXPECT_EQ(cost.passes, 11);
    EXPECT_EQ(cost.builds, 1) << "confirm_builds counts only on fresh builds";
    EXPECT_EQ(cost.build_waves, 0u);
    EXPECT_DOUBLE_EQ(cost.total_s(), 11 * 2 * 0.2);
}

TEST(ConfirmationCost, ThePlanCountsTheRoutesItWouldConfirmAndTheDefaultsBuildForEmptySlots) {
    Evaluation d = evaluation("", 1.0, 10);
    std::vector<Evaluation> evaluations{d, evaluation("-a=1", 0.5, 40), evaluation("-a=2", 0.995, 90)};
    // -a=2 is not min_gain faster: its slow build is not the confirmation's.
    ConfirmationCost cost = planned_confirmation(timing(2, 0, 3, true, 1), 1, 0.1, evaluations, d);
    EXPECT_EQ(cost.routes, 4u) << "the default, -a=1 and two slots the search may still fill";
    EXPECT_DOUBLE_EQ(cost.build_s, 40);
    EXPECT_EQ(cost.build_waves, 4u);
    EXPECT_DOUBLE_EQ(default_run_s(RunBaseline{{}, {{"a", 0.25}, {"b", 0.5}}}), 0.75) << "one run: every case once";
}

}  // namespace
}  // namespace routetune
