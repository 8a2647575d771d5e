#include "study/route_minimizer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace routetune {
namespace {

Route wide_winner(int knobs) {
    Route route;
    for (int k = 0; k < knobs; ++k) route.set("-k" + std::to_string(k), "on");
    return route;
}

TEST(RouteMinimizer, KeepsOnlyTheChangesWhoseRemovalCostsTime) {
    Route winner = wide_winner(40);
    auto judge = [](const Route&, const Route& candidate) {
        return !candidate.get("-k3") || !candidate.get("-k17") || !candidate.get("-k31");
    };
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 200);
    EXPECT_EQ(minimal.route, Route::parse("-k3=on -k17=on -k31=on"));
    EXPECT_EQ(minimal.removed.size(), 37u);
    EXPECT_FALSE(minimal.cut_short);
    EXPECT_LT(minimal.trials, 60u);  // delta debugging, not one trial per change
}

TEST(RouteMinimizer, AWideWinnerWithFewChangesThatMatterShrinksInFewTrials) {
    Route winner = wide_winner(900);
    auto matters = [](const Route& route, int k) { return route.get("-k" + std::to_string(k)).has_value(); };
    auto judge = [&](const Route&, const Route& candidate) {
        for (int k = 7; k < 900; k += 35)
            if (!matters(candidate, k)) return true;
        return false;
    };
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 2000);
    EXPECT_EQ(minimal.route.assignments().size(), 26u);
    EXPECT_FALSE(minimal.cut_short);
    EXPECT_LT(minimal.trials, 400u);  // about 2k log2(N) = 2 x 26 x 10; one trial per change would be 900
}

TEST(RouteMinimizer, AChangeOfAValueTheBaselineSetsGoesBackToTheBaselineValue) {
    Route baseline = Route::parse("-O=2");
    Route winner = Route::parse("-O=3 -fa=on -fb=on");
    auto judge = [](const Route&, const Route& candidate) { return !candidate.get("-fb"); };
    MinimizedRoute minimal = minimize_route(winner, baseline, {"-fa"}, judge, 50);
    EXPECT_EQ(minimal.route, Route::parse("-O=2 -fb=on"));
}

TEST(RouteMinimizer, SmallLossesCannotAddUpBecauseEveryCandidateIsJudgedAgainstTheWinner) {
    Route winner = wide_winner(12);
    // every change gains 1%; a candidate "costs time" when it is 2.5% slower than its reference
    auto time = [](const Route& route) { return std::pow(0.99, static_cast<double>(route.assignments().size())); };
    auto judge = [&](const Route& reference, const Route& candidate) { return time(candidate) > time(reference) * 1.025; };
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 200);
    EXPECT_EQ(minimal.route.assignments().size(), 10u);
}

TEST(RouteMinimizer, StopsAtTheTrialLimit) {
    Route winner = wide_winner(30);
    std::size_t calls = 0;
    auto judge = [&](const Route&, const Route& candidate) {
        ++calls;
        return candidate.assignments().size() < 30;  // nothing can go
    };
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 7);
    EXPECT_EQ(calls, 7u);
    EXPECT_TRUE(minimal.cut_short);
    EXPECT_EQ(minimal.route, winner);
}

}  // namespace
}  // namespace routetune
