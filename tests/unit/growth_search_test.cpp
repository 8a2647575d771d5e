#include "search/growth_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "search_fixtures.hpp"

namespace routetune {
namespace {

// `knobs` on/off knobs -k00.. (default off), then the extra axes.
Expression expression(int knobs, std::vector<Axis> extra = {}) {
    Expression e;
    for (int k = 0; k < knobs; ++k) e.axes.push_back(axis((k < 10 ? "-k0" : "-k") + std::to_string(k), {"on", "off"}, "off"));
    for (Axis& a : extra) e.axes.push_back(std::move(a));
    return e;
}

// Every dimension of space: growth may change every knob.
std::vector<std::size_t> all_dims(const SearchSpace& space) {
    std::vector<std::size_t> dims;
    for (std::size_t d = 0; d < space.dimensions(); ++d) dims.push_back(d);
    return dims;
}

// Time 1 times factor(route), an interval of +-1%; factor 0 means the build fails.
Observation measure(const Route& route, const std::function<double(const Route&)>& factor) {
    Observation obs;
    obs.route = route;
    double f = factor(route);
    if (f == 0) {
        obs.status = Status::BuildFailed;
        return obs;
    }
    return ok(route, f);
}

// An Ok observation of route at median whose interval is +-half (relative): narrower than ok()'s
// +-1%, as three repeats that happened to agree give.
Observation narrow(const Route& route, double median, double half) {
    Observation obs = ok(route, median);
    obs.ci_low_s = median * (1 - half), obs.ci_high_s = median * (1 + half);
    return obs;
}

// Runs growth one proposal at a time from the baseline until it proposes nothing (at most
// limit builds); returns the history.
SearchHistory grow(const SearchSpace& space, const std::function<double(const Route&)>& factor, std::uint64_t seed,
                   std::size_t limit = 200) {
    std::vector<std::size_t> dims = all_dims(space);
    GrowthSearch growth(space, dims, seed);
    SearchHistory history;
    history.observations.push_back(measure(Route{}, factor));
    while (history.observations.size() < limit) {
        PointHistory taken(space, history);
        auto points = growth.propose(taken, space.baseline(), 1);
        if (points.empty()) break;
        history.observations.push_back(measure(space.route(points.front()), factor));
    }
    return history;
}

const Observation* fastest(const SearchHistory& history) {
    const Observation* best = nullptr;
    for (const auto& obs : history.observations)
        if (obs.status == Status::Ok && (best == nullptr || obs.median_s < best->median_s)) best = &obs;
    return best;
}

// The Ok route with the most changes among the fastest ones.
const Observation* largest_fastest(const SearchHistory& history) {
    const Observation* best = fastest(history);
    const Observation* most = nullptr;
    for (const auto& obs : history.observations)
        if (best && obs.status == Status::Ok && obs.median_s == best->median_s &&
            (most == nullptr || obs.route.assignments().size() > most->route.assignments().size()))
            most = &obs;
    return most;
}

TEST(GrowthSearch, KeepsEveryValueThatBuildsAndCutsAFailingGroupDownToItsCulprit) {
    SearchSpace space(expression(64));
    auto factor = [](const Route& r) { return r.get("-k13") == "on" ? 0.0 : 1.0; };
    SearchHistory history = grow(space, factor, 1);
    std::size_t with_culprit = 0, most = 0;
    for (const auto& obs : history.observations) {
        with_culprit += obs.route.get("-k13") == "on";
        if (obs.status == Status::Ok) most = std::max(most, obs.route.assignments().size());
    }
    EXPECT_EQ(most, 63u) << "every knob but the culprit ends up set";
    EXPECT_LE(with_culprit, 5u) << "a group of 16, then halves of 8, 4, 2, 1 at most";
    EXPECT_LT(history.observations.size(), 20u) << "far fewer builds than one per knob";
}

TEST(GrowthSearch, AValueThatCostsTimeIsLeftOutAndItsGroupKept) {
    SearchSpace space(expression(48));
    auto factor = [](const Route& r) {
        double f = r.get("-k20") == "on" ? 1.3 : 1.0;
        return r.get("-k07") == "on" ? f * 0.95 : f;
    };
    for (std::uint64_t seed : {1, 2, 3}) {
        SearchHistory history = grow(space, factor, seed);
        const Observation* grown = largest_fastest(history);
        ASSERT_NE(grown, nullptr);
        EXPECT_EQ(grown->route.assignments().size(), 47u) << "seed " << seed;
        EXPECT_FALSE(grown->route.get("-k20")) << "seed " << seed;
        EXPECT_EQ(grown->route.get("-k07"), "on") << "seed " << seed;
        EXPECT_DOUBLE_EQ(grown->median_s, 0.95) << "seed " << seed;
    }
}

TEST(GrowthSearch, ValuesThatPayOnlyTogetherMeetInTheGrownRoute) {
    SearchSpace space(expression(60));
    auto factor = [](const Route& r) { return r.get("-k05") == "on" && r.get("-k44") == "on" ? 0.9 : 1.0; };
    SearchHistory history = grow(space, factor, 4);
    const Observation* best = fastest(history);
    ASSERT_NE(best, nullptr);
    EXPECT_DOUBLE_EQ(best->median_s, 0.9);
}

TEST(GrowthSearch, AnotherValueReplacesTheIncumbentsOnlyWhenItIsNotSlower) {
    // -e v1 and v2 are 1.2% faster than v0 (the default) and than each other, less than the noise
    // tolerance; the value growth tries first (v2 for these seeds) stays: the other one, tried as
    // a swap, is 1.2% slower and a swap must not be slower at all.
    std::vector<Axis> extra{axis("-e", {"v0", "v1", "v2"}, "v0")};
    SearchSpace space(expression(20, extra));
    std::size_t e = space.dimensions() - 1;
    ASSERT_EQ(space.knob(e), "-e");
    auto factor = [](const Route& r) { return r.get("-e") == "v2" ? 0.988 : r.get("-e") == "v1" ? 1.0 : 1.012; };
    std::vector<std::size_t> dims = all_dims(space);
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        SearchHistory history = grow(space, factor, seed);
        PointHistory taken(space, history);
        bool swapped_in = false;
        for (const auto& obs : history.observations) swapped_in |= obs.route.get("-e") == "v1";
        EXPECT_TRUE(swapped_in) << "v1 was tried, seed " << seed;
        Point grown = GrowthSearch(space, dims, seed).incumbent(taken, space.baseline());
        EXPECT_EQ(space.value(e, grown[e]), "v2") << "seed " << seed;
        EXPECT_EQ(SearchSpace::changes(grown), 21u) << "seed " << seed;
    }
}

TEST(GrowthSearch, APendingGroupIsNotProposedAgainAndTheSameHistoryGivesTheSameProposals) {
    SearchSpace space(expression(64));
    std::vector<std::size_t> dims = all_dims(space);
    GrowthSearch growth(space, dims, 9);
    SearchHistory history;
    history.observations.push_back(measure(Route{}, [](const Route&) { return 1.0; }));
    PointHistory taken(space, history);
    auto first = growth.propose(taken, space.baseline(), 2);
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first, growth.propose(taken, space.baseline(), 2));
    for (std::size_t d = 0; d < space.dimensions(); ++d)
        EXPECT_FALSE(first[0][d] != 0 && first[1][d] != 0) << "two groups in flight share no value";
    history.observations.push_back(Observation{space.route(first[0]), Status::Pending});
    PointHistory with_pending(space, history);
    auto next = growth.propose(with_pending, space.baseline(), 1);
    ASSERT_EQ(next.size(), 1u);
    EXPECT_EQ(next.front(), first[1]) << "the pending group's values are not proposed again";
}

// A study answers a group whose artifact is its base's with the base's own figures (same_as):
// growth reads it as no effect and learns nothing new of the base's time. Every knob here is a
// no-op but one, 10% slower, tried in the fourth group; the default was measured once with a
// +-10% interval. Three answered groups before it repeat that one measurement; read as three
// new measurements, they would narrow the default's interval and blame the value, which one
// noisy measurement cannot tell from the default.
TEST(GrowthSearch, GroupsAnsweredByTheirBasesArtifactAddNoMeasurement) {
    SearchSpace space(expression(64));
    std::vector<std::size_t> dims = all_dims(space);
    GrowthSearch growth(space, dims, 3);
    Observation d = ok(Route{}, 1.0);
    d.ci_low_s = 0.9;
    d.ci_high_s = 1.1;
    auto run = [&](const std::string& slow) {
        SearchHistory history;
        history.observations.push_back(d);
        std::optional<Route> first_slow;
        while (history.observations.size() < 60) {
            auto points = growth.propose(PointHistory(space, history), space.baseline(), 1);
            if (points.empty()) break;
            Route route = space.route(points.front());
            Observation obs = route.get(slow) == "on" && first_slow ? ok(*first_slow, 1.10) : d;
            if (route.get(slow) == "on" && !first_slow) {
                first_slow = route;
                obs = ok(route, 1.10);
            }
            obs.same_as = obs.route == route ? "" : measured_as(obs);
            obs.route = route;
            history.observations.push_back(obs);
        }
        return history;
    };
    SearchHistory all_noops = run("-none");
    ASSERT_GE(all_noops.observations.size(), 5u);
    std::string slow;
    for (const auto& [knob, value] : all_noops.observations[4].route.assignments())
        if (!all_noops.observations[3].route.get(knob)) slow = knob;
    ASSERT_FALSE(slow.empty()) << "the fourth group adds knobs of its own";
    for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(all_noops.observations[i].same_as, "(default)");
    SearchHistory history = run(slow);
    Point grown = growth.incumbent(PointHistory(space, history), space.baseline());
    EXPECT_EQ(space.route(grown).get(slow), "on") << slow << " is within the default's one noisy measurement";
}

// A swap answered by its base's own artifact (-e=v1 and -e=v2 build one binary here) is not
// slower at all, whatever the base's filtered estimate says: it takes the knob's place, where
// a swap read against the estimate (1% above it here) would be refused.
TEST(GrowthSearch, ASwapAnsweredByItsBasesArtifactIsNotSlower) {
    std::vector<Axis> extra{axis("-e", {"v0", "v1", "v2"}, "v0")};
    SearchSpace space(expression(20, extra));
    std::vector<std::size_t> dims = all_dims(space);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        GrowthSearch growth(space, dims, seed);
        SearchHistory history;
        history.observations.push_back(ok(Route{}, 1.0));
        std::optional<Observation> first_e;  // the one measurement of -e's artifact
        while (history.observations.size() < 60) {
            auto points = growth.propose(PointHistory(space, history), space.baseline(), 1);
            if (points.empty()) break;
            Route route = space.route(points.front());
            bool e_set = route.get("-e") && *route.get("-e") != "v0";
            if (e_set && !first_e) first_e = ok(route, 1.01);
            Observation obs = e_set ? *first_e : history.observations.front();
            obs.same_as = obs.route == route ? "" : measured_as(obs);
            obs.route = route;
            history.observations.push_back(obs);
        }
        ASSERT_TRUE(first_e.has_value());
        Point grown = growth.incumbent(PointHistory(space, history), space.baseline());
        EXPECT_NE(space.route(grown).get("-e"), first_e->route.get("-e")) << "seed " << seed << ": the swap took its place";
    }
}


// `flags` on/off knobs -kNN (default off), then `ints` integer knobs -pN over 0, 2, 4, 16, 32, 128
// with default 8.
Expression flags_and_ints(int flags, int ints) {
    std::vector<Axis> extra;
    for (int p = 0; p < ints; ++p) extra.push_back(axis("-p" + std::to_string(p), {"0", "2", "4", "16", "32", "128"}, "8"));
    return expression(flags, extra);
}

TEST(GrowthSearch, IntegerKnobsComeAfterTheFlagsAndTheirFarthestValueFirst) {
    // 40 flags, one of which fails; 6 integer knobs. No build changes an integer knob before
    // every flag is settled (the failing one alone blamed); then each integer knob's first value
    // is its extreme farthest from the default in rank (128: three steps above 8, 0 three below:
    // a seeded coin, so 0 or 128), its second the other extreme.
    SearchSpace space(flags_and_ints(40, 6));
    auto factor = [](const Route& r) { return r.get("-k17") == "on" ? 0.0 : 1.0; };
    SearchHistory history = grow(space, factor, 3, 60);
    bool flags_settled = false;
    std::map<std::string, std::vector<std::string>> tried;  // int knob -> values in the order first tried
    for (const auto& obs : history.observations) {
        bool touches_int = false;
        for (const auto& [knob, value] : obs.route.assignments()) {
            if (knob[1] != 'p') continue;
            touches_int = true;
            auto& order = tried[knob];
            if (std::find(order.begin(), order.end(), value) == order.end()) order.push_back(value);
        }
        if (touches_int) EXPECT_TRUE(flags_settled) << "an integer knob before the flags were settled";
        if (obs.status == Status::Ok && obs.route.assignments().size() >= 39 && !obs.route.get("-k17")) flags_settled = true;
    }
    ASSERT_EQ(tried.size(), 6u);
    for (const auto& [knob, order] : tried) {
        ASSERT_GE(order.size(), 2u) << knob;
        EXPECT_TRUE((order[0] == "0" && order[1] == "128") || (order[0] == "128" && order[1] == "0")) << knob << " " << order[0];
    }
}

TEST(GrowthSearch, AToleranceIsNotBuiltOnIntervalsNarrowByChance) {
    // The history's intervals are +-1% (five builds of -z, a knob growth does not change), but
    // the start's and the groups' are +-0.05% (three repeats that happened to agree). Groups
    // measure 2% slower by noise: with their own intervals the tolerance would call them slower
    // and cut them; with the history's typical width they join.
    std::vector<Axis> extra{axis("-z", {"a", "b", "c", "d", "e", "f"}, "a")};
    SearchSpace space(expression(32, extra));
    std::vector<std::size_t> dims;
    for (std::size_t d = 0; d + 1 < space.dimensions(); ++d) dims.push_back(d);
    GrowthSearch growth(space, dims, 1);
    SearchHistory history;
    history.observations.push_back(narrow(Route{}, 1.0, 0.0005));
    for (const char* z : {"b", "c", "d", "e", "f"}) history.observations.push_back(ok(Route::parse(std::string("-z=") + z), 1.0));
    for (int i = 0; i < 2; ++i) {
        auto points = growth.propose(PointHistory(space, history), space.baseline(), 1);
        ASSERT_EQ(points.size(), 1u);
        history.observations.push_back(narrow(space.route(points.front()), 1.02, 0.0005));
    }
    Point grown = growth.incumbent(PointHistory(space, history), space.baseline());
    EXPECT_EQ(SearchSpace::changes(grown), 32u) << "both groups joined";
}

TEST(GrowthSearch, ALaterResultNeverChangesHowAnEarlierOneWasRead) {
    // A group measured 2% slower than the start, with a narrow interval, is read with the typical
    // width of the results up to it (+-1%, the start's) and joins. Later results all have narrow
    // intervals; had they moved the typical width used to read that group again, it would now be
    // slower beyond its noise, and the incumbent every later group was built on would vanish.
    SearchSpace space(expression(64));
    GrowthSearch growth(space, all_dims(space), 1);
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    auto first = growth.propose(PointHistory(space, history), space.baseline(), 1);
    ASSERT_EQ(first.size(), 1u);
    history.observations.push_back(narrow(space.route(first.front()), 1.02, 0.002));
    Point joined = growth.incumbent(PointHistory(space, history), space.baseline());
    ASSERT_EQ(joined, first.front()) << "the group joins when read";
    for (int i = 0; i < 3; ++i) {
        auto points = growth.propose(PointHistory(space, history), space.baseline(), 1);
        ASSERT_EQ(points.size(), 1u);
        history.observations.push_back(narrow(space.route(points.front()), 1.02, 0.002));
    }
    Point grown = growth.incumbent(PointHistory(space, history), space.baseline());
    for (std::size_t d = 0; d < space.dimensions(); ++d)
        if (joined[d] != 0) EXPECT_EQ(grown[d], joined[d]) << "the first group's value of " << space.knob(d) << " was read out again";
    EXPECT_EQ(SearchSpace::changes(grown), 64u) << "every later group joined on it";
}

TEST(GrowthSearch, AnIntegerKnobsFirstValueIsItsExtremeFarthestFromTheDefault) {
    // -p: 0 2 4 below the default 8 and 16 above: 0 is three steps away, 16 one, so 0 is tried
    // first and 16 second; -q the other way round (128 first, 4 second), whatever the seed.
    std::vector<Axis> extra{axis("-p", {"0", "2", "4", "16"}, "8"), axis("-q", {"4", "16", "32", "128"}, "8")};
    SearchSpace space(expression(8, extra));
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        SearchHistory history = grow(space, [](const Route&) { return 1.0; }, seed, 60);
        std::map<std::string, std::vector<std::string>> tried;
        for (const auto& obs : history.observations)
            for (const auto& [knob, value] : obs.route.assignments()) {
                auto& order = tried[knob];
                if (std::find(order.begin(), order.end(), value) == order.end()) order.push_back(value);
            }
        ASSERT_GE(tried["-p"].size(), 2u);
        ASSERT_GE(tried["-q"].size(), 2u);
        EXPECT_EQ(tried["-p"][0], "0") << seed;
        EXPECT_EQ(tried["-p"][1], "16") << seed;
        EXPECT_EQ(tried["-q"][0], "128") << seed;
        EXPECT_EQ(tried["-q"][1], "4") << seed;
    }
}

TEST(GrowthSearch, MergedValuesThatMeetAFailureAreTriedAgainAsFreshValues) {
    // Two groups are built at once; the first joins, so the second (clean on its own) is merged
    // into the next group. A value x of the first and a value y of the second fail together, so
    // that merged group fails: the second group's values go back to the front of the pool (tried
    // again before the first pass has tried every value) as fresh values, so the failure they
    // meet is cut down to y and the others join.
    SearchSpace space(expression(160));
    std::vector<std::size_t> dims = all_dims(space);
    GrowthSearch growth(space, dims, 1);
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    auto first = growth.propose(PointHistory(space, history), space.baseline(), 2);
    ASSERT_EQ(first.size(), 2u);
    Route a = space.route(first[0]), b = space.route(first[1]);
    std::string x = a.assignments().begin()->first, y = b.assignments().begin()->first;
    auto factor = [&](const Route& r) { return r.get(x) && r.get(y) ? 0.0 : 1.0; };
    history.observations.push_back(measure(a, factor));
    history.observations.push_back(measure(b, factor));
    std::size_t failures = 0, retried = 0, all_tried = 0;
    std::set<std::string> tried;
    while (history.observations.size() < 400) {
        auto points = growth.propose(PointHistory(space, history), space.baseline(), 1);
        if (points.empty()) break;
        Observation obs = measure(space.route(points.front()), factor);
        history.observations.push_back(obs);
        for (const auto& [knob, value] : obs.route.assignments()) tried.insert(knob);
        if (!all_tried && tried.size() == space.dimensions()) all_tried = history.observations.size();
        bool holds_b = std::all_of(b.assignments().begin(), b.assignments().end(),
                                   [&](const auto& change) { return obs.route.get(change.first).has_value(); });
        if (failures > 0 && holds_b && !retried) retried = history.observations.size();
        if (obs.status != Status::Ok) ++failures;
    }
    ASSERT_GT(failures, 0u);
    ASSERT_NE(all_tried, 0u);
    EXPECT_NE(retried, 0u) << "the merged values were not tried again";
    EXPECT_LT(retried, all_tried) << "tried again only in the second pass";
    Point grown = growth.incumbent(PointHistory(space, history), space.baseline());
    EXPECT_EQ(SearchSpace::changes(grown), 159u) << "every value but y";
    EXPECT_FALSE(space.route(grown).get(y));
}

TEST(GrowthSearch, AMergedSwapIsTriedAgainOnTheIncumbent) {
    // -e=v2 joined, then -k00; a swap to -e=v1 built on the incumbent before -k00 came back
    // after it (parallel builds), clean and 5% faster: clean against an older incumbent, it goes
    // to the values to merge, which only take knobs the incumbent leaves at their default. It
    // is tried again at once as a swap on the incumbent, not left there for good.
    std::vector<Axis> extra{axis("-e", {"v0", "v1", "v2"}, "v0")};
    SearchSpace space(expression(40, extra));
    GrowthSearch growth(space, all_dims(space), 1);
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    history.observations.push_back(ok(Route::parse("-e=v2"), 1.0));
    history.observations.push_back(ok(Route::parse("-e=v2 -k00=on"), 1.0));
    history.observations.push_back(ok(Route::parse("-e=v1"), 0.95));
    ASSERT_EQ(space.route(growth.incumbent(PointHistory(space, history), space.baseline())), Route::parse("-e=v2 -k00=on"));
    auto points = growth.propose(PointHistory(space, history), space.baseline(), 1);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(space.route(points.front()).get("-e"), "v1") << space.route(points.front()).to_string();
    EXPECT_EQ(space.route(points.front()).get("-k00"), "on");
}

}  // namespace
}  // namespace routetune
