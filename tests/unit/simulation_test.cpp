#include <gtest/gtest.h>

#include <cmath>

#include "routetune/error.hpp"
#include "search/search_space.hpp"
#include "search/sim/simulation.hpp"
#include "search/sim/synthetic_landscape.hpp"
#include "search_fixtures.hpp"

namespace routetune {
namespace {

Axis bool_axis(std::string knob) {
    Axis a;
    a.knob = std::move(knob);
    a.values = ValueList::of({"on", "off"});
    a.default_value = "off";
    return a;
}

Observation ok(std::string_view route, double median) {
    Observation obs;
    obs.route = Route::parse(route);
    obs.status = Status::Ok;
    obs.median_s = median;
    obs.ci_low_s = median * 0.995;
    obs.ci_high_s = median * 1.005;
    return obs;
}

Expression two_knobs() {
    Expression e;
    e.axes = {bool_axis("-a"), bool_axis("-b")};
    return e;
}

std::vector<Observation> record() {
    return {ok("", 1.0), ok("-a=on", 0.5), ok("-b=on", 0.9), ok("-a=on -b=on", 0.45)};
}

TEST(Simulation, FastNeverCombinesSoItMissesTheTarget) {
    SimulationOptions options;
    options.budget = 10;
    SimulationReport report = simulate_recorded("fast", two_knobs(), record(), options);
    EXPECT_DOUBLE_EQ(report.best_known_speedup, 1.0 / 0.45);
    ASSERT_EQ(report.runs.size(), 1u);
    EXPECT_EQ(report.runs[0].best_speedup, (std::vector<double>{1.0, 2.0, 2.0}));
    EXPECT_TRUE(report.runs[0].strategy_finished);
    EXPECT_FALSE(report.runs[0].builds_to_target.has_value());
    EXPECT_EQ(report.reached, 0u);
    EXPECT_FALSE(report.median_builds_to_target.has_value());
    ASSERT_EQ(report.mean_fraction.size(), 10u);
    EXPECT_DOUBLE_EQ(report.mean_fraction[9], 2.0 * 0.45);
}

TEST(Simulation, MixedReachesTheBestInItsFourthBuild) {
    SimulationOptions options;
    options.budget = 10;
    options.seeds = {1, 2, 3};
    SimulationReport report = simulate_recorded("mixed", two_knobs(), record(), options);
    EXPECT_EQ(report.reached, 3u);
    for (const SimulationRun& run : report.runs) {
        EXPECT_EQ(run.best_speedup, (std::vector<double>{1.0, 2.0, 2.0, 1.0 / 0.45}));
        EXPECT_EQ(run.builds_to_target, 4u);
    }
    EXPECT_DOUBLE_EQ(*report.mean_builds_to_target, 4.0);
    EXPECT_DOUBLE_EQ(*report.median_builds_to_target, 4.0);
}

TEST(Simulation, ARouteMissingFromTheRecordCostsABuildAndRevealsNothing) {
    std::vector<Observation> partial = {ok("", 1.0), ok("-a=on", 0.5), ok("-a=on -b=on", 0.45)};
    SimulationOptions options;
    options.budget = 2;
    SimulationReport report = simulate_recorded("full", two_knobs(), partial, options);
    // full spells routes out: "-a=on -b=off" is the record's "-a=on", found as the same point.
    EXPECT_EQ(report.runs[0].best_speedup, (std::vector<double>{1.0, 1.0 / 0.45}));
    options.budget = 10;
    report = simulate_recorded("fast", two_knobs(), partial, options);
    EXPECT_EQ(report.runs[0].best_speedup, (std::vector<double>{1.0, 2.0, 2.0}));  // -b=on: unknown, spent
    EXPECT_TRUE(report.runs[0].strategy_finished);
}

TEST(Simulation, BudgetCapsEveryRun) {
    SimulationOptions options;
    options.budget = 2;
    options.batch = 3;
    SimulationReport report = simulate_recorded("fast", two_knobs(), record(), options);
    EXPECT_EQ(report.runs[0].best_speedup.size(), 2u);
    EXPECT_FALSE(report.runs[0].strategy_finished);
}

TEST(Simulation, RecordWithoutBaselineIsAUsageError) {
    std::vector<Observation> no_baseline = {ok("-a=on", 0.5)};
    EXPECT_THROW(simulate_recorded("fast", two_knobs(), no_baseline, {}), UsageError);
}

TEST(Simulation, CurvesNeverDecreaseAndSeedsAreReplayedDeterministically) {
    LandscapeOptions landscape_options;
    landscape_options.knobs = 20;
    landscape_options.seed = 3;
    SyntheticLandscape landscape(landscape_options);
    Oracle oracle = [&](const Route& r) { return landscape.evaluate(r); };
    SimulationOptions options;
    options.budget = 30;
    options.seeds = {1, 2, 3, 4};
    for (const char* name : {"random", "auto"}) {
        SimulationReport a = simulate(name, landscape.expression(), oracle, landscape.best_speedup(), options);
        SimulationReport b = simulate(name, landscape.expression(), oracle, landscape.best_speedup(), options);
        ASSERT_EQ(a.runs.size(), 4u);
        for (std::size_t i = 0; i < a.runs.size(); ++i) EXPECT_EQ(a.runs[i].best_speedup, b.runs[i].best_speedup);
        for (std::size_t k = 1; k < a.mean_fraction.size(); ++k) EXPECT_GE(a.mean_fraction[k], a.mean_fraction[k - 1]);
        EXPECT_FALSE(simulation_summary(a).empty());
    }
}

TEST(SyntheticLandscape, IsAPureFunctionOfOptionsAndRoute) {
    LandscapeOptions options;
    options.knobs = 30;
    SyntheticLandscape one(options), two(options);
    SearchSpace space(one.expression());
    EXPECT_EQ(space.dimensions(), 30u);
    Route best = one.best_route();
    Observation a = one.evaluate(best), b = two.evaluate(best);
    EXPECT_EQ(a.status, Status::Ok);
    EXPECT_EQ(a.median_s, b.median_s);
    EXPECT_GT(one.best_speedup(), 1.2);
    EXPECT_DOUBLE_EQ(one.true_time(Route{}), 1.0);
    std::size_t failing = 0;
    for (std::size_t d = 0; d < space.dimensions(); ++d)
        for (std::uint32_t c = 1; c < space.choices(d); ++c) {
            Point p = space.baseline();
            p[d] = c;
            failing += one.evaluate(space.route(p)).status != Status::Ok;
        }
    EXPECT_GE(failing, 3u);
}


TEST(ExpressionFromRecord, KnobsLeftUnsetSomewhereVaryOverTheirDefault) {
    std::vector<Observation> rec = {ok("-z=1", 1.0), ok("-a=on -z=1", 0.5), ok("-b=x -z=1", 0.9), ok("-b=y -z=1", 0.9)};
    Expression e = expression_from_record(rec);
    EXPECT_EQ(e.text, "-a=[on|(default)] -b=[x|y|(default)] -z=[1]");
    SearchSpace space(e);
    EXPECT_EQ(space.dimensions(), 2u);
    EXPECT_EQ(space.route(space.baseline()).to_string(), "-z=1");
    SimulationOptions options;
    options.budget = 10;
    SimulationReport report = simulate_recorded("mixed", e, rec, options);
    // Phase two proposes -a=on -b=x and -a=on -b=y: absent from the record, spent, unknown.
    EXPECT_EQ(report.runs[0].best_speedup, (std::vector<double>{1.0, 2.0, 2.0, 2.0, 2.0, 2.0}));
    EXPECT_TRUE(report.runs[0].strategy_finished);
    EXPECT_THROW(simulate_recorded("annealing", e, rec, options), UsageError);
}


TEST(SyntheticLandscape, WideSynergyMembersCarryASmallEffectOfTheirOwnAndNeedlesNone) {
    for (std::uint64_t seed : {1, 2}) {
        SyntheticLandscape wide(LandscapeOptions::wide(300, seed)), needles(LandscapeOptions::wide_needles(300, seed));
        auto interactions = wide.interactions();
        ASSERT_EQ(interactions.size(), needles.interactions().size());
        std::size_t members = 0;
        for (std::size_t i = 4; i < interactions.size(); ++i)  // after the 4 pairs of values that matter: the synergies
            for (const auto& [knob, value] : interactions[i].members) {
                Route alone;
                alone.set(knob, value);
                double effect = std::abs(std::log(wide.true_time(alone)));
                EXPECT_GE(effect, 0.005 - 1e-9) << knob << "=" << value;
                EXPECT_LE(effect, 0.02 + 1e-9) << knob << "=" << value;
                EXPECT_LT(std::abs(std::log(needles.true_time(alone))), 1e-6) << "a needle does nothing alone";
                ++members;
            }
        EXPECT_EQ(members, 2u * 2 + 2u * 3);
    }
}

TEST(SyntheticLandscape, TheGccShapesTripleCostsAloneOnFlagsAndPaysTogether) {
    Expression space;
    for (int k = 0; k < 200; ++k) space.axes.push_back(axis("-f" + std::to_string(k), {"on", "off"}, "off"));
    for (int k = 0; k < 200; ++k) space.axes.push_back(axis("-m" + std::to_string(k), {"a", "b", "c", "d"}, "a"));
    space.axes.push_back(axis("-O", {"0", "1", "2", "3", "fast"}, "2"));
    SyntheticLandscape landscape(LandscapeOptions::gcc(1, false), space);
    const auto triple = landscape.interactions().back();
    ASSERT_EQ(triple.members.size(), 3u);
    Route together;
    for (const auto& [knob, value] : triple.members) {
        Route alone;
        alone.set(knob, value);
        EXPECT_NEAR(std::log(landscape.true_time(alone)), 0.01, 0.0021) << "each member costs about 1% alone";
        EXPECT_EQ(value, "on") << "on an on/off flag";
        together.set(knob, value);
    }
    double gain = -std::log(landscape.true_time(together));
    EXPECT_GE(gain, 0.10 - 1e-9);
    EXPECT_LE(gain, 0.15 + 1e-9);
    EXPECT_EQ(landscape.evaluate(Route::parse("-O=fast")).status, Status::Inaccurate) << "fast but wrong";
    EXPECT_LT(landscape.true_time(Route::parse("-O=3")), 1.0);
}

// gcc-doors (a diagnostic): four small gains, each with a closer on another knob that does
// nothing alone and, held beside the gain, cancels it; the gcc shape itself is drawn as before
// (no door, and the same time for every route tried here).
TEST(SyntheticLandscape, TheGccDoorsShapesClosersDoNothingAloneAndShutOutTheirGain) {
    Expression space;
    for (int k = 0; k < 200; ++k) space.axes.push_back(axis("-f" + std::to_string(k), {"on", "off"}, "off"));
    for (int k = 0; k < 200; ++k) space.axes.push_back(axis("-m" + std::to_string(k), {"a", "b", "c", "d"}, "a"));
    space.axes.push_back(axis("-O", {"0", "1", "2", "3", "fast"}, "2"));
    SyntheticLandscape plain(LandscapeOptions::gcc(1, false), space), doors(LandscapeOptions::gcc_doors(1), space);
    auto interactions = doors.interactions();
    ASSERT_EQ(interactions.size(), plain.interactions().size() + 4);
    for (std::size_t i = plain.interactions().size(); i < interactions.size(); ++i) {
        const auto& [gain_knob, gain_value] = interactions[i].members.at(0);
        const auto& [closer_knob, closer_value] = interactions[i].members.at(1);
        EXPECT_NE(gain_knob, closer_knob);
        Route gain, closer, both;
        gain.set(gain_knob, gain_value);
        closer.set(closer_knob, closer_value);
        both = gain;
        both.set(closer_knob, closer_value);
        EXPECT_LT(std::log(doors.true_time(gain)), -0.0099) << "a small gain of 1-5% alone";
        EXPECT_NEAR(std::log(doors.true_time(closer)), 0, 1e-9) << "the closer does nothing alone";
        EXPECT_NEAR(std::log(doors.true_time(both)), 0, 1e-9) << "and shuts the gain out";
        EXPECT_EQ(plain.true_time(gain), doors.true_time(gain)) << "the gcc shape is drawn as before";
    }
}

}  // namespace
}  // namespace routetune
