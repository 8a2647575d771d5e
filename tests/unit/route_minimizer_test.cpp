#include "study/route_minimizer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

#include "search/search_rng.hpp"
#include "study/removal_judge.hpp"

namespace routetune {
namespace {

Route wide_winner(int knobs) {
    Route route;
    for (int k = 0; k < knobs; ++k) route.set("-k" + std::to_string(k), "on");
    return route;
}

std::string padded(int k) {
    char name[16];
    std::snprintf(name, sizeof name, "-k%03d", k);
    return name;
}

/// 900 changes; every 35th from the 8th (26 in all) gains 2-5% (log), the rest nothing.
double log_time_of(const Route& route) {
    double log_time = 0;
    for (int k = 7; k < 900; k += 35)
        if (!route.get(padded(k))) log_time += 0.02 + 0.03 * static_cast<double>(k % 11) / 10;
    return log_time;
}

/// The judge of tune --minimize, modelled: both routes sampled afresh each trial with 1% log
/// noise per sample, slower_with_confidence deciding.
CostsTime noisy_judge(std::uint64_t seed, std::size_t& judged) {
    return [seed, &judged](const Route& reference, const Route& candidate) {
        SearchRng rng(seed, judged++);
        double ref = log_time_of(reference), cand = log_time_of(candidate);
        return slower_with_confidence([&](int rounds, std::vector<double>& r, std::vector<double>& c) {
            for (int i = 0; i < rounds; ++i) {
                r.push_back(std::exp(ref + 0.01 * rng.normal()));
                c.push_back(std::exp(cand + 0.01 * rng.normal()));
            }
            return true;
        });
    };
}

/// A judge that lets every removal pass (a noisy judge misses small losses) until the check of
/// the route with every change removed against the winner; from then on it compares time truly.
struct MissesLossesUntilTheCheck {
    const Route& winner;
    std::function<double(const Route&)> time;
    std::size_t calls = 0;
    bool lying = true;

    /// The judge, counting its calls here.
    CostsTime costs_time() {
        return [this](const Route& reference, const Route& candidate) {
            ++calls;
            if (reference == winner && candidate.assignments().empty()) lying = false;
            return !lying && time(candidate) > time(reference);
        };
    }
};

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
    // groups of 16: 900 / 16 + 26 x 5 = 186, plus the final check; delta debugging in passes took 316
    EXPECT_LT(minimal.trials, 230u);
}

TEST(RouteMinimizer, ChangesThatMatterMayClusterInTheOrder) {
    Route winner;
    for (int k = 0; k < 900; ++k) winner.set(padded(k), "on");
    auto judge = [](const Route&, const Route& candidate) {
        for (int k = 400; k < 426; ++k)
            if (!candidate.get(padded(k))) return true;
        return false;
    };
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 2000);
    EXPECT_EQ(minimal.route.assignments().size(), 26u);
    EXPECT_TRUE(minimal.route.get(padded(400)) && minimal.route.get(padded(425)));
    EXPECT_LT(minimal.trials, 230u);
}

TEST(RouteMinimizer, ANoisyJudgeLeavesAtMostTwiceTheChangesThatMatterAndKeepsTheSpeed) {
    Route winner;
    for (int k = 0; k < 900; ++k) winner.set(padded(k), "on");
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        std::size_t judged = 0;
        MinimizedRoute minimal = minimize_route(winner, Route{}, {}, noisy_judge(seed, judged), 400);
        SCOPED_TRACE("seed " + std::to_string(seed));
        EXPECT_LE(minimal.route.assignments().size(), 52u);
        EXPECT_LT(log_time_of(minimal.route), 0.025);  // at most one of the smallest gains lost
        EXPECT_LE(minimal.trials, 300u);
        EXPECT_EQ(minimal.trials, judged);
    }
}

TEST(RouteMinimizer, AGainDroppedByAFalseVerdictIsPutBackByTheCheckAgainstTheWinner) {
    Route winner = wide_winner(64);
    auto time = [](const Route& route) { return route.get("-k5") ? 0.9 : 1.0; };
    bool lied = false;
    auto judge = [&](const Route& reference, const Route& candidate) {
        bool slower = time(candidate) > time(reference);
        if (slower && !lied && reference != Route{} && candidate.assignments().size() + 1 < reference.assignments().size()) {
            lied = true;  // the first group holding -k5 is judged free
            return false;
        }
        return slower;
    };
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 400);
    ASSERT_TRUE(lied);
    EXPECT_EQ(minimal.route, Route::parse("-k5=on"));
    EXPECT_FALSE(minimal.cut_short);
}

TEST(RouteMinimizer, ACheckThatNeverPassesDoesNotLeaveTheGroupsItPutBack) {
    Route winner;
    for (int k = 0; k < 900; ++k) winner.set(padded(k), "on");
    std::size_t checks = 0;
    auto judge = [&](const Route& reference, const Route& candidate) {
        if (reference == winner && candidate.assignments().size() < 500) return ++checks > 0;  // a lucky winner
        return log_time_of(candidate) > log_time_of(reference);
    };
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 2000);
    EXPECT_GE(checks, 8u);  // eight groups put back, none of which cured it
    EXPECT_EQ(minimal.route.assignments().size(), 26u);
    EXPECT_EQ(log_time_of(minimal.route), 0.0);
    EXPECT_FALSE(minimal.cut_short);
}

TEST(RouteMinimizer, AChangeOfAValueTheBaselineSetsGoesBackToTheBaselineValue) {
    Route baseline = Route::parse("-O=2");
    Route winner = Route::parse("-O=3 -fa=on -fb=on");
    auto judge = [](const Route&, const Route& candidate) { return !candidate.get("-fb"); };
    MinimizedRoute minimal = minimize_route(winner, baseline, {}, judge, 50);
    EXPECT_EQ(minimal.route, Route::parse("-O=2 -fb=on"));
}

TEST(RouteMinimizer, SmallLossesThatAddUpAreUndoneByTheCheckAgainstTheWinner) {
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
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge, 10);
    EXPECT_EQ(calls, 8u);  // two kept back for the check against the winner, which has nothing to check
    EXPECT_TRUE(minimal.cut_short);
    EXPECT_EQ(minimal.route, winner);
}


TEST(RouteMinimizer, BlocksGuideIt) {
    // 64 changes in four blocks of 16: two did not pay and hold nothing that matters; two paid,
    // each through one change. The unpaid go in one trial, each paid block is cut in halves
    // (four trials), the halves left aside go in one trial, and the check against the winner.
    Route winner = wide_winner(64);
    std::vector<ChangeBlock> blocks(4);
    for (int k = 0; k < 64; ++k) blocks[static_cast<std::size_t>(k / 16)].knobs.push_back("-k" + std::to_string(k));
    blocks[2].paid = blocks[3].paid = true;
    auto judge = [](const Route&, const Route& candidate) { return !candidate.get("-k37") || !candidate.get("-k60"); };
    MinimizedRoute minimal = minimize_route(winner, Route{}, blocks, judge, 100);
    EXPECT_EQ(minimal.route, Route::parse("-k37=on -k60=on"));
    EXPECT_LE(minimal.trials, 1u + 4 + 4 + 2 + 1);
    MinimizedRoute blind = minimize_route(winner, Route{}, {}, judge, 100);
    EXPECT_EQ(blind.route, minimal.route);
    EXPECT_GT(blind.trials, minimal.trials);
}

TEST(RouteMinimizer, WhenTheUnpaidBlocksCostTimeTheyAreGroupTested) {
    Route winner = wide_winner(32);
    std::vector<ChangeBlock> blocks(2);
    for (int k = 0; k < 32; ++k) blocks[static_cast<std::size_t>(k / 16)].knobs.push_back("-k" + std::to_string(k));
    blocks[1].paid = true;
    auto judge = [](const Route&, const Route& candidate) { return !candidate.get("-k3") || !candidate.get("-k20"); };
    MinimizedRoute minimal = minimize_route(winner, Route{}, blocks, judge, 100);
    EXPECT_EQ(minimal.route, Route::parse("-k3=on -k20=on"));
}

TEST(RouteMinimizer, WithFewTrialsTheEmptyUnpaidBlocksGoFirstAndManyAtATime) {
    // A growing search's winner: 480 changes in 60 blocks of 8 that did not pay (groups of
    // values that did not cost time: most hold nothing that matters; 8 hold a small gain the
    // step's noise hid) and 160 in 10 blocks of 16 that paid, one change that matters each.
    // Trials are few (a fifth of a study's builds): the unpaid blocks, group-tested as units,
    // the least gain first, lose the most changes per trial, so they go first; cutting the paid
    // blocks first spent the trials on them and left 361 changes (this order leaves 164).
    Route winner;
    std::vector<ChangeBlock> blocks(70);
    std::vector<int> matters;
    for (int k = 0; k < 640; ++k) {
        winner.set(padded(k), "on");
        blocks[static_cast<std::size_t>(k < 480 ? k / 8 : 60 + (k - 480) / 16)].knobs.push_back(padded(k));
    }
    for (std::size_t b = 0; b < 60; ++b) {
        bool holds = b % 7 == 3 && b < 56;
        blocks[b].gain = 0.001 * static_cast<double>(b % 11) + (holds ? 0.008 : 0.0);
        if (holds) matters.push_back(static_cast<int>(8 * b + b % 8));
    }
    for (std::size_t b = 60; b < 70; ++b) {
        blocks[b].paid = true;
        blocks[b].gain = 0.05;
        matters.push_back(static_cast<int>(480 + 16 * (b - 60) + b % 16));
    }
    auto judge = [&](const Route&, const Route& candidate) {
        return std::any_of(matters.begin(), matters.end(), [&](int k) { return !candidate.get(padded(k)); });
    };
    MinimizedRoute minimal = minimize_route(winner, Route{}, blocks, judge, 60);
    EXPECT_TRUE(minimal.cut_short);
    for (int k : matters) EXPECT_TRUE(minimal.route.get(padded(k))) << padded(k);
    EXPECT_LE(minimal.route.assignments().size(), 250u);
}

TEST(RouteMinimizer, ItsTrialsAreAFifthOfTheStudysBuildsNeverFewerThan16NorMoreThanTwiceTheChangesAnd8) {
    EXPECT_EQ(minimization_trials(600, 375), 75u);
    EXPECT_EQ(minimization_trials(600, 20), 16u);
    EXPECT_EQ(minimization_trials(4, 16), 16u);
    EXPECT_EQ(minimization_trials(3, 1000), 14u);
}

TEST(RouteMinimizer, ARouteThatRanOutOfTrialsIsStillCheckedAndNeverEndsSlowerThanTheWinner) {
    // Every change goes, -k5, the one that matters, too; the check finds the route slower and
    // the trials run out while bisecting for the removal to undo: the result is the last route
    // of the removals known not to be slower, with -k5.
    Route winner = wide_winner(64);
    MissesLossesUntilTheCheck judge{winner, [](const Route& route) { return route.get("-k5") ? 0.9 : 1.0; }};
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge.costs_time(), 8);
    EXPECT_EQ(judge.calls, 8u);
    EXPECT_FALSE(judge.lying);
    EXPECT_TRUE(minimal.cut_short);
    EXPECT_TRUE(minimal.route.get("-k5")) << minimal.route.to_string();
    EXPECT_LT(minimal.route.assignments().size(), 64u);  // some removals were kept
    EXPECT_EQ(minimal.route.assignments().size() + minimal.removed.size(), 64u);
}

TEST(RouteMinimizer, ARouteLeftUncheckedAfterAPutBackFallsBackToOneKnownNotToBeSlower) {
    // As above, with two changes that matter, -k1 and -k63: the check finds the route slower,
    // the bisection puts back the group holding one of them, and the trials run out at the next
    // check. The route with that group back still lacks the other; the result is the last route
    // of the removals the bisection found not slower, with both.
    Route winner = wide_winner(64);
    MissesLossesUntilTheCheck judge{winner, [](const Route& route) {
                                        return (route.get("-k1") ? 0.9 : 1.0) * (route.get("-k63") ? 0.9 : 1.0);
                                    }};
    MinimizedRoute minimal = minimize_route(winner, Route{}, {}, judge.costs_time(), 8);
    EXPECT_EQ(judge.calls, 8u);
    EXPECT_TRUE(minimal.cut_short);
    EXPECT_TRUE(minimal.route.get("-k1") && minimal.route.get("-k63")) << minimal.route.to_string();
    EXPECT_EQ(minimal.route.assignments().size() + minimal.removed.size(), 64u);
}

}  // namespace
}  // namespace routetune
