#include "search/value_sweep.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "search_fixtures.hpp"

namespace routetune {
namespace {

// -n over 0, 1, 2, 4, ..., 256 (default 0) and `flags` on/off knobs.
Expression expression(int flags) {
    Expression e;
    std::vector<std::string> sizes;
    for (int i = 0; i < 10; ++i) sizes.push_back(std::to_string(i == 0 ? 0 : 1 << (i - 1)));
    e.axes.push_back(axis("-n", sizes, "0"));
    e.axes.push_back(axis("-mode", {"a", "b", "c", "d", "e", "f"}, "a"));
    for (int k = 0; k < flags; ++k) e.axes.push_back(axis("-f" + std::to_string(k), {"on", "off"}, "off"));
    return e;
}

TEST(ValueSweep, TakesTheValueWhoseNeighboursAgreeOverANoisyLuckyOne) {
    // A bell-shaped gain of 6% centred on -n=32, measured with noise; -n=2 measures a lucky
    // 8% faster although it gains nothing. Smoothed along the order, 32 wins.
    SearchSpace space(expression(200));
    ValueSweep sweep(space, {}, true);
    ASSERT_EQ(sweep.dims().size(), 1u) << "-n only: -mode's values are not numbers";
    std::size_t n = sweep.dims().front();
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    const double noise[] = {0.004, -0.08, 0.006, -0.003, 0.005, -0.006, 0.002, 0.004, -0.002};
    for (const Point& point : sweep.points(space.baseline())) {
        double value = std::stod(space.value(n, point[n]));
        double steps = value == 0 ? 0 : std::log2(value) + 1;  // position along the order
        double gain = 0.06 * std::exp(-(steps - 6) * (steps - 6) / 2.9);
        history.observations.push_back(ok(space.route(point), std::exp(-gain + noise[point[n] - 1])));
    }
    PointHistory taken(space, history);
    auto chosen = sweep.apply(taken, space.baseline(), space.baseline());
    ASSERT_TRUE(chosen.has_value());
    EXPECT_EQ(space.value(n, (*chosen)[n]), "32");
}

TEST(ValueSweep, WaitsForEveryValueAndKeepsTheAnchorsWhenNoneIsFaster) {
    SearchSpace space(expression(200));
    ValueSweep sweep(space, {}, true);
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    auto points = sweep.points(space.baseline());
    ASSERT_EQ(points.size(), 9u);
    for (std::size_t i = 0; i + 1 < points.size(); ++i) history.observations.push_back(ok(space.route(points[i]), 1.02));
    EXPECT_FALSE(sweep.apply(PointHistory(space, history), space.baseline(), space.baseline()).has_value());
    history.observations.push_back(ok(space.route(points.back()), 1.03));
    auto chosen = sweep.apply(PointHistory(space, history), space.baseline(), space.baseline());
    ASSERT_TRUE(chosen.has_value());
    EXPECT_EQ(*chosen, space.baseline());
}

TEST(ValueSweep, AFamilyOfNamesIsSweptAndItsFastestMeasuredValueTaken) {
    Expression e = expression(250);
    std::vector<std::string> names{"generic"};
    for (int i = 0; i < 14; ++i) names.push_back("cpu" + std::to_string(i));
    e.axes.push_back(axis("-target", names, "generic"));
    SearchSpace space(e);
    ValueSweep sweep(space, {}, true);
    ASSERT_EQ(sweep.dims().size(), 2u) << "-n and -target";
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    for (const Point& point : sweep.points(space.baseline())) {
        Route route = space.route(point);
        history.observations.push_back(ok(route, route.get("-target") == "cpu9" ? 0.96 : route.get("-target") ? 0.99 : 1.01));
    }
    auto chosen = sweep.apply(PointHistory(space, history), space.baseline(), space.baseline());
    ASSERT_TRUE(chosen.has_value());
    EXPECT_EQ(space.route(*chosen), Route::parse("-target=cpu9"));
}

TEST(ValueSweep, SweepsNothingWhenItWouldCostATenthOfTheSingleChanges) {
    SearchSpace small(expression(20));  // 9 values of -n against 9 + 5 + 20 single changes
    EXPECT_TRUE(ValueSweep(small, {}, true).dims().empty());
    EXPECT_TRUE(ValueSweep(SearchSpace(expression(200)), {}, false).dims().empty());
    SearchSpace wide(expression(200));
    std::size_t n = 0;
    while (wide.knob(n) != "-n") ++n;
    EXPECT_EQ(ValueSweep(wide, {}, true).dims(), std::vector<std::size_t>{n});
    EXPECT_TRUE(ValueSweep(wide, {n}, true).dims().empty()) << "an excluded knob is not swept";
}


TEST(ValueSweep, ALuckyAnchorIsSmoothedWithItsNeighboursLikeEveryValue) {
    // The default -n=0 measures a lucky 3% fast; its neighbour -n=1 measures 1.0, and -n=64
    // gains 3% with neighbours (32, 128) that gain 2.5%. Against the anchor's single
    // measurement (-3.0% in log) 64's smoothed -2.8% would lose; smoothed among its neighbours
    // the anchor is -2.0% and 64 wins.
    SearchSpace space(expression(200));
    ValueSweep sweep(space, {}, true);
    ASSERT_EQ(sweep.dims().size(), 1u);
    std::size_t n = sweep.dims().front();
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 0.97));
    for (const Point& point : sweep.points(space.baseline())) {
        const std::string& value = space.value(n, point[n]);
        double time = value == "64" ? 0.97 : value == "32" || value == "128" ? 0.975 : 1.0;
        history.observations.push_back(ok(space.route(point), time));
    }
    auto chosen = sweep.apply(PointHistory(space, history), space.baseline(), space.baseline());
    ASSERT_TRUE(chosen.has_value());
    ASSERT_NE((*chosen)[n], 0u) << "the anchor's own value was kept";
    EXPECT_EQ(space.value(n, (*chosen)[n]), "64");
}

}  // namespace
}  // namespace routetune
