#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "routetune/error.hpp"
#include "search_fixtures.hpp"
#include "routetune/strategy.hpp"
#include "search/budget.hpp"
#include "search/feasibility_model.hpp"
#include "search/search_space.hpp"
#include "search/sim/synthetic_landscape.hpp"
#include "search/strategy_registry.hpp"

namespace routetune {
namespace {


// -a on|off (default off), -b x|y|z (default x), -c 1|2 (default unknown), -f fixed to 3.
Expression small_expression() {
    Expression e;
    e.text = "-a=[on|off] -b=[x|y|z] -c=[1|2] -f=3";
    e.axes = {axis("-a", {"on", "off"}, "off"), axis("-b", {"x", "y", "z"}, "x"), axis("-c", {"1", "2"}, ""),
              axis("-f", {"3"}, "2")};
    return e;
}

using Oracle = std::function<Observation(const Route&)>;

// Runs strategy for steps proposals of one route each, appending the oracle's outcomes.
std::vector<Route> run(Strategy& strategy, SearchHistory& history, const Oracle& oracle, std::size_t steps) {
    std::vector<Route> proposed;
    for (std::size_t i = 0; i < steps; ++i) {
        auto routes = strategy.propose(history, 1);
        if (routes.empty()) break;
        EXPECT_EQ(routes.size(), 1u);
        proposed.push_back(routes.front());
        history.observations.push_back(oracle(routes.front()));
    }
    return proposed;
}

// True when every knob of route is in the expression with a listed value, and fixed knobs are set.
bool within(const Route& route, const Expression& e) {
    for (const auto& [knob, value] : route.assignments()) {
        auto it = std::find_if(e.axes.begin(), e.axes.end(), [&](const Axis& a) { return a.knob == knob; });
        if (it == e.axes.end() || !it->values.contains(value)) return false;
    }
    for (const Axis& a : e.axes)
        if (a.fixed() && route.get(a.knob) != a.values.at(0)) return false;
    return true;
}

LandscapeOptions small_landscape() {
    LandscapeOptions options;
    options.knobs = 14;
    options.seed = 7;
    return options;
}

TEST(StrategyRegistry, NamesAndUnknown) {
    EXPECT_EQ(strategy_names(), (std::vector<std::string>{"auto", "evolve", "fast", "full", "greedy", "mixed", "model", "random"}));
    EXPECT_THROW(make_strategy("annealing", small_expression(), {}), UsageError);
    EXPECT_EQ(make_strategy("greedy", small_expression(), {})->name(), "greedy");
}

TEST(StrategyRegistry, EveryRowMakesTheStrategyItNames) {
    EXPECT_EQ(strategy_list(" | "), "fast | full | mixed | random | greedy | evolve | model | auto");
    for (const StrategyEntry& entry : strategy_registry()) {
        EXPECT_EQ(entry.make(small_expression(), {})->name(), entry.name);
        EXPECT_EQ(find_strategy(entry.name), &entry);
    }
    EXPECT_EQ(find_strategy("annealing"), nullptr);
}

TEST(StrategyRegistry, ExpansionModesOfTheEnumeratedStrategies) {
    EXPECT_EQ(expansion_mode_from_string("fast"), ExpansionMode::Fast);
    EXPECT_EQ(expansion_mode_from_string("full"), ExpansionMode::Full);
    EXPECT_EQ(expansion_mode_from_string("mixed"), ExpansionMode::Mixed);
    EXPECT_EQ(strategy_list(", ", true), "fast, full, mixed");
    for (const char* text : {"fastest", "random"}) {
        try {
            expansion_mode_from_string(text);
            FAIL() << text;
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("'" + std::string(text) + "' (valid: fast, full, mixed)"),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(Strategies, ProposeValidUniqueRoutesWithinTheExpression) {
    SyntheticLandscape landscape(small_landscape());
    const Expression& e = landscape.expression();
    SearchSpace space(e);
    for (const std::string& name : strategy_names()) {
        auto strategy = make_strategy(name, e, {});
        SearchHistory history;
        std::set<Point> seen;
        for (int step = 0; step < 40; ++step) {
            auto routes = strategy->propose(history, 3);
            ASSERT_LE(routes.size(), 3u) << name;
            if (routes.empty()) break;
            for (const Route& route : routes) {
                EXPECT_TRUE(within(route, e)) << name << ": " << route.to_string();
                auto point = space.point(route);
                ASSERT_TRUE(point.has_value()) << name;
                EXPECT_TRUE(seen.insert(*point).second) << name << " repeated " << route.to_string();
                history.observations.push_back(landscape.evaluate(route));
            }
        }
        EXPECT_GE(seen.size(), 20u) << name;
        EXPECT_TRUE(strategy->propose(history, 0).empty()) << name;
    }
}

TEST(Strategies, DeterministicPerSeedAndSeedsDiffer) {
    SyntheticLandscape landscape(small_landscape());
    Oracle oracle = [&](const Route& r) { return landscape.evaluate(r); };
    for (const std::string& name : {"random", "evolve", "model", "auto"}) {
        StrategyOptions one, two;
        two.seed = 99;
        SearchHistory h1, h2, h3;
        auto a = make_strategy(name, landscape.expression(), one);
        auto b = make_strategy(name, landscape.expression(), one);
        auto c = make_strategy(name, landscape.expression(), two);
        auto r1 = run(*a, h1, oracle, 30);
        auto r2 = run(*b, h2, oracle, 30);
        auto r3 = run(*c, h3, oracle, 30);
        EXPECT_EQ(r1, r2) << name;
        EXPECT_NE(r1, r3) << name;
    }
}

TEST(Strategies, ResumeFromHistoryRepeatsNothingAndContinuesIdentically) {
    SyntheticLandscape landscape(small_landscape());
    Oracle oracle = [&](const Route& r) { return landscape.evaluate(r); };
    for (const std::string& name : strategy_names()) {
        SearchHistory uninterrupted;
        auto whole = run(*make_strategy(name, landscape.expression(), {}), uninterrupted, oracle, 45);
        SearchHistory history;
        auto first = run(*make_strategy(name, landscape.expression(), {}), history, oracle, 17);
        auto rest = run(*make_strategy(name, landscape.expression(), {}), history, oracle, 28);
        first.insert(first.end(), rest.begin(), rest.end());
        EXPECT_EQ(first, whole) << name;
    }
}

TEST(Strategies, PendingCountsAsTakenButAnUnfinishedOneCanBeRerun) {
    Expression e = small_expression();
    auto fast = make_strategy("fast", e, {});
    SearchHistory history;
    Observation pending;
    pending.route = Route::parse("-f=3");
    history.observations.push_back(pending);
    auto routes = fast->propose(history, 1);
    ASSERT_EQ(routes.size(), 1u);
    EXPECT_EQ(routes[0].to_string(), "-a=on -f=3");
    history.observations.clear();
    EXPECT_EQ(fast->propose(history, 1).at(0).to_string(), "-f=3");
}

TEST(FastStrategy, ExactOrderSkippingHistory) {
    Expression e = small_expression();
    auto fast = make_strategy("fast", e, {});
    SearchHistory history;
    std::vector<std::string> got;
    for (const Route& r : fast->propose(history, 100)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-f=3", "-a=on -f=3", "-b=y -f=3", "-b=z -f=3", "-c=1 -f=3", "-c=2 -f=3"}));
    history.observations.push_back(ok(Route::parse("-b=y -f=3"), 1.0));
    history.observations.push_back(ok(Route::parse("-f=3"), 1.0));
    got.clear();
    for (const Route& r : fast->propose(history, 2)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-a=on -f=3", "-b=z -f=3"}));
    EXPECT_EQ(fast->phase_of(Route::parse("-a=on -f=3"), history), "fast");
}

TEST(FullStrategy, ExactOrderAndEquivalentRoutesCountAsSeen) {
    Expression e;
    e.axes = {axis("-a", {"on", "off"}, "off"), axis("-b", {"x", "y"}, "x")};
    auto full = make_strategy("full", e, {});
    SearchHistory history;
    std::vector<std::string> got;
    for (const Route& r : full->propose(history, 10)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-a=on -b=x", "-a=on -b=y", "-a=off -b=x", "-a=off -b=y"}));
    history.observations.push_back(ok(Route{}, 1.0));              // the default: same as -a=off -b=x
    history.observations.push_back(ok(Route::parse("-a=on"), 1.0));  // same as -a=on -b=x
    got.clear();
    for (const Route& r : full->propose(history, 10)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-a=on -b=y", "-a=off -b=y"}));
}

TEST(MixedStrategy, PhaseTwoIsTheProductOfValuesThatBeatTheBaseline) {
    Expression e;
    e.axes = {axis("-a", {"on", "off"}, "off"), axis("-b", {"x", "y", "z"}, "x"), axis("-c", {"on", "off"}, "off"),
              axis("-d", {"on", "off"}, "off"), axis("-e", {"on", "off"}, "off")};
    StrategyOptions options;
    options.mixed_max_knobs = 3;
    auto mixed = make_strategy("mixed", e, options);
    SearchHistory history;
    auto phase_one = mixed->propose(history, 100);
    ASSERT_EQ(phase_one.size(), 7u);
    history.observations.push_back(ok(Route{}, 1.0));
    history.observations.push_back(ok(Route::parse("-a=on"), 0.90));   // beats
    history.observations.push_back(ok(Route::parse("-b=y"), 0.95));   // beats
    history.observations.push_back(ok(Route::parse("-b=z"), 0.80));   // beats, best of -b
    history.observations.push_back(ok(Route::parse("-c=on"), 0.99));  // within noise: not promoted
    Observation inaccurate = ok(Route::parse("-d=on"), 0.5);
    inaccurate.status = Status::Inaccurate;                             // fast but not Ok
    history.observations.push_back(inaccurate);
    EXPECT_EQ(mixed->propose(history, 100).at(0).to_string(), "-e=on");
    history.observations.push_back(ok(Route::parse("-e=on"), 0.96));   // beats, smallest gain
    std::vector<std::string> got;
    for (const Route& r : mixed->propose(history, 100)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-b=y -e=on", "-b=z -e=on", "-a=on -e=on", "-a=on -b=y", "-a=on -b=y -e=on",
                                             "-a=on -b=z", "-a=on -b=z -e=on"}));
    EXPECT_EQ(mixed->phase_of(Route::parse("-a=on -b=z"), history), "mixed-2");
    EXPECT_EQ(mixed->phase_of(Route::parse("-a=on"), history), "fast");
    history.observations.push_back(ok(Route::parse("-a=on -b=y"), 0.8));
    got.clear();
    for (const Route& r : mixed->propose(history, 2)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-b=y -e=on", "-b=z -e=on"}));

    options.mixed_max_knobs = 2;  // keeps -b (gain 1.25) and -a (1.11), drops -e (1.04)
    got.clear();
    for (const Route& r : make_strategy("mixed", e, options)->propose(history, 100)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-a=on -b=z"}));
}

TEST(MixedStrategy, PhaseTwoWaitsWhileAPhaseOneRouteIsPending) {
    Expression e;
    e.axes = {axis("-a", {"on", "off"}, "off"), axis("-b", {"on", "off"}, "off")};
    auto mixed = make_strategy("mixed", e, StrategyOptions{});
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    history.observations.push_back(ok(Route::parse("-a=on"), 0.8));
    history.observations.push_back(Observation{Route::parse("-b=on"), Status::Pending});
    EXPECT_TRUE(mixed->propose(history, 10).empty());
    history.observations.back() = ok(Route::parse("-b=on"), 0.7);
    std::vector<std::string> got;
    for (const Route& r : mixed->propose(history, 10)) got.push_back(r.to_string());
    EXPECT_EQ(got, (std::vector<std::string>{"-a=on -b=on"}));
}

TEST(RandomStrategy, ExhaustsASmallSpaceWithoutRepeats) {
    Expression e = small_expression();
    SearchSpace space(e);
    ASSERT_EQ(space.size().to_u64(), 18u);
    auto random = make_strategy("random", e, {});
    SearchHistory history;
    auto all = run(*random, history, [](const Route& r) { return ok(r, 1.0); }, 100);
    EXPECT_EQ(all.size(), 18u);
    EXPECT_EQ(all.front().to_string(), "-f=3");
    std::set<Route> unique(all.begin(), all.end());
    EXPECT_EQ(unique.size(), 18u);
}

TEST(GreedyStrategy, DescendsOneKnobAtATimeToTheOptimumOfAnAdditiveLandscape) {
    Expression e;
    e.axes = {axis("-a", {"on", "off"}, "off"), axis("-b", {"x", "y", "z"}, "x"), axis("-c", {"on", "off"}, "off")};
    std::map<std::string, double> factor = {{"-a=on", 0.8}, {"-b=y", 0.9}, {"-b=z", 1.3}, {"-c=on", 1.1}};
    Oracle oracle = [&](const Route& r) {
        double t = 1.0;
        for (const auto& [k, v] : r.assignments()) t *= factor.count(k + "=" + v) ? factor[k + "=" + v] : 1.0;
        return ok(r, t);
    };
    auto greedy = make_strategy("greedy", e, {});
    SearchHistory history;
    std::vector<std::string> got;
    for (const Route& r : run(*greedy, history, oracle, 100)) got.push_back(r.to_string());
    // Round 1: every single change; move to -a=on; round 2 retries only -b=y (the one other
    // change that was faster); move there; round 3 has nothing left to try.
    EXPECT_EQ(got, (std::vector<std::string>{"", "-a=on", "-b=y", "-b=z", "-c=on", "-a=on -b=y"}));
}

// A rule-based failure oracle: -x=on always fails to build; other knobs have mild effects.
TEST(FeasibilityModel, ModelAndAutoRarelyProposeAValueThatAlwaysFails) {
    Expression e;
    for (int k = 0; k < 12; ++k) e.axes.push_back(axis("-k" + std::to_string(k), {"on", "off"}, "off"));
    e.axes.push_back(axis("-x", {"on", "off"}, "off"));
    std::sort(e.axes.begin(), e.axes.end(), [](const Axis& a, const Axis& b) { return a.knob < b.knob; });
    Oracle oracle = [](const Route& r) {
        if (r.get("-x") == "on") {
            Observation failed;
            failed.route = r;
            failed.status = Status::BuildFailed;
            return failed;
        }
        double t = 1.0;
        for (const auto& [k, v] : r.assignments()) t *= (k == "-k3" || k == "-k7") ? 0.9 : 1.005;
        return ok(r, t);
    };
    for (const char* name : {"model", "auto"}) {
        SearchHistory history;
        auto routes = run(*make_strategy(name, e, {}), history, oracle, 80);
        ASSERT_EQ(routes.size(), 80u) << name;
        std::size_t early = 0, late = 0;
        for (std::size_t i = 0; i < routes.size(); ++i)
            if (routes[i].get("-x") == "on") ++(i < 20 ? early : late);
        // Uniform random routes would set -x=on in half of the 60 late proposals.
        EXPECT_LE(late, 4u) << name;
        EXPECT_LE(early + late, 8u) << name;
    }
}

TEST(FeasibilityModel, AChangeThatFailsNextToTheIncumbentIsBlamedThere) {
    // -b=on builds alone but fails next to -a=on (gcc: -fsection-anchors with
    // -fno-toplevel-reorder); the incumbent is -a=on.
    Expression e;
    e.axes = {axis("-a", {"on", "off"}, "off"), axis("-b", {"on", "off"}, "off"), axis("-c", {"on", "off"}, "off"),
              axis("-d", {"on", "off"}, "off")};
    SearchSpace space(e);
    SearchHistory history;
    history.observations = {ok(Route{}, 1.0), ok(Route::parse("-a=on"), 0.8), ok(Route::parse("-b=on"), 0.95)};
    for (int i = 0; i < 3; ++i) {
        Observation failed;
        failed.route = Route::parse(i == 0 ? "-a=on -b=on" : i == 1 ? "-a=on -b=on -c=on" : "-a=on -b=on -d=on");
        failed.status = Status::BuildFailed;
        history.observations.push_back(failed);
    }
    PointHistory taken(space, history);
    Point incumbent = *space.point(Route::parse("-a=on"));
    Point with_b = *space.point(Route::parse("-b=on"));
    std::size_t b = 1;
    FeasibilityModel global(space, taken);
    FeasibilityModel here(space, taken, 0.1, &incumbent);
    EXPECT_GT(global.value(b, with_b[b]), 0.9) << "cleared by its Ok route, an interaction is blamed weakly";
    EXPECT_LT(here.value(b, with_b[b]), 0.5) << "next to the incumbent, -b=on is a suspect of every failure it is in";
    EXPECT_GT(here.value(0, incumbent[0]), 0.9) << "the incumbent's own value is not a suspect";
}

// Number of knobs whose value differs between two routes (an unset knob is at its default).
std::size_t distance(const Route& a, const Route& b) {
    std::set<std::string> knobs;
    for (const auto& [k, v] : a.assignments()) knobs.insert(k);
    for (const auto& [k, v] : b.assignments()) knobs.insert(k);
    std::size_t n = 0;
    for (const auto& k : knobs) n += a.get(k) != b.get(k);
    return n;
}

TEST(AutoStrategy, TrailingFailuresShrinkTheChangesMadeToTheIncumbent) {
    // 60 on/off knobs, -k10..-k29=on each 2% faster: the model soon proposes many confident
    // changes at once. Then every proposal fails (as when a change conflicts with the
    // incumbent): after three failures a proposal may change at most two knobs of it.
    Expression e;
    for (int k = 10; k < 70; ++k) e.axes.push_back(axis("-k" + std::to_string(k), {"on", "off"}, "off"));
    std::sort(e.axes.begin(), e.axes.end(), [](const Axis& a, const Axis& b) { return a.knob < b.knob; });
    Oracle fast_knobs = [](const Route& r) {
        double t = 1.0;
        for (const auto& [k, v] : r.assignments()) t *= std::stoi(k.substr(2)) < 30 ? 0.98 : 1.0;
        return ok(r, t);
    };
    auto strategy = make_strategy("auto", e, {});
    SearchHistory history;
    run(*strategy, history, fast_knobs, 30);
    auto incumbent = [&] {
        const Observation* best = nullptr;
        for (const Observation& obs : history.observations)
            if (obs.status == Status::Ok && (best == nullptr || obs.median_s < best->median_s)) best = &obs;
        return best->route;
    };
    std::size_t widest = 0;
    for (int failures = 0; failures < 6; ++failures) {
        auto routes = strategy->propose(history, 1);
        ASSERT_EQ(routes.size(), 1u);
        std::size_t changed = distance(routes.front(), incumbent());
        if (failures == 0) widest = changed;
        if (failures >= 3) EXPECT_LE(changed, 2u) << "after " << failures << " failures: " << routes.front().to_string();
        Observation failed;
        failed.route = routes.front();
        failed.status = Status::BuildFailed;
        history.observations.push_back(failed);
    }
    EXPECT_GT(widest, 2u) << "the first proposal combines several confident changes";
}

// -O=[0|1|3] (default 2) and 30 on/off knobs (default off), so auto neither enumerates the
// space nor can screen it one knob at a time.
Expression optimisation_level_expression() {
    Expression e;
    e.axes.push_back(axis("-O", {"0", "1", "2", "3"}, "2"));
    for (int k = 10; k < 40; ++k) e.axes.push_back(axis("-k" + std::to_string(k), {"on", "off"}, "off"));
    std::sort(e.axes.begin(), e.axes.end(), [](const Axis& a, const Axis& b) { return a.knob < b.knob; });
    return e;
}

TEST(AutoStrategy, ScreensTheOptimisationLevelFirstThenEverythingElseOnTheFastestLevel) {
    Expression e = optimisation_level_expression();
    auto strategy = make_strategy("auto", e, {});
    SearchHistory history;
    auto first = strategy->propose(history, 10);
    ASSERT_EQ(first.size(), 4u);  // the baseline, then -O=0, -O=1, -O=3 alone
    EXPECT_EQ(first[0].to_string(), "");
    for (std::size_t i = 1; i < first.size(); ++i) EXPECT_EQ(first[i].assignments().size(), 1u) << first[i].to_string();
    std::map<std::string, double> level_time = {{"", 1.0}, {"0", 3.0}, {"1", 1.5}, {"3", 0.5}};
    for (std::size_t i = 0; i < 3; ++i)
        history.observations.push_back(ok(first[i], level_time[first[i].get("-O").value_or("")]));
    Observation pending;
    pending.route = first[3];
    pending.status = Status::Pending;
    history.observations.push_back(pending);
    EXPECT_TRUE(strategy->propose(history, 10).empty()) << "waits for every -O level before choosing the anchor";
    history.observations.back() = ok(first[3], level_time[first[3].get("-O").value_or("")]);
    auto second = strategy->propose(history, 100);
    ASSERT_GE(second.size(), 3u);
    std::set<std::string> screened;
    for (const Route& route : second) {
        if (strategy->phase_of(route, history) != "auto-screen") break;
        EXPECT_EQ(route.get("-O"), "3") << route.to_string();
        EXPECT_GE(route.assignments().size(), 3u) << "groups of several knobs: " << route.to_string();
        for (const auto& [knob, value] : route.assignments())
            if (knob != "-O") EXPECT_TRUE(screened.insert(knob).second) << knob << " screened twice";
    }
    EXPECT_EQ(screened.size(), 30u) << "every other knob is screened once, on -O=3";
}

TEST(Budget, ExhaustionAndRemaining) {
    Budget none;
    EXPECT_FALSE(none.exhausted(1000000, 1e9));
    EXPECT_FALSE(none.remaining(5).has_value());
    EXPECT_EQ(none.next_batch(4, 10, 0), 4u);
    Budget budget{10, 60.0};
    EXPECT_FALSE(budget.exhausted(9, 59.9));
    EXPECT_TRUE(budget.exhausted(10, 0));
    EXPECT_TRUE(budget.exhausted(0, 60.0));
    EXPECT_EQ(budget.remaining(7), 3u);
    EXPECT_EQ(budget.remaining(12), 0u);
    EXPECT_EQ(budget.next_batch(4, 7, 1.0), 3u);
    EXPECT_EQ(budget.next_batch(2, 7, 1.0), 2u);
    EXPECT_EQ(budget.next_batch(4, 7, 61.0), 0u);
}

TEST(SearchHistory, BeatsNeedsConfidenceAndOk) {
    SearchHistory history;
    history.min_gain = 0.02;
    history.observations.push_back(ok(Route{}, 1.0));  // CI [0.99, 1.01]
    Observation fast = ok(Route::parse("-a=on"), 0.95);
    fast.ci_high_s = 0.97;
    EXPECT_TRUE(history.beats_default(fast));  // 0.97 < 0.99 / 1.02 = 0.9706
    fast.ci_high_s = 0.971;
    EXPECT_FALSE(history.beats_default(fast));
    fast.ci_high_s = 0.9;
    fast.status = Status::Inaccurate;
    EXPECT_FALSE(history.beats_default(fast));
    EXPECT_EQ(history.default_observation(), &history.observations[0]);
    EXPECT_EQ(history.find(Route::parse("-a=on")), nullptr);
}

// An evaluation with paired rounds: default_s / candidate_s give the ratios.
Evaluation paired_evaluation(const std::string& route, double median, std::vector<double> default_s,
                             std::vector<double> candidate_s) {
    Evaluation e;
    e.route = Route::parse(route);
    e.status = Status::Ok;
    e.timing.median_s = median;
    e.timing.ci_low_s = median * 0.99;
    e.timing.ci_high_s = median * 1.01;
    e.paired = {std::move(default_s), std::move(candidate_s)};
    return e;
}

TEST(SearchHistory, APairedObservationIsTheDefaultsMedianOverThePairedSpeedup) {
    Evaluation d = paired_evaluation("", 1.0, {1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1.25, 0.8, 1, 1});
    // Drift made this route's own median 0.5 (a 2x "gain"); its pairs say 1.25x [1.0, 1.6].
    Evaluation e = paired_evaluation("-a=on", 0.5, {1, 1, 1, 1, 1, 1, 1}, {0.8, 0.8, 0.8, 1, 0.625, 0.8, 0.8});
    Observation obs = observe(e, &d);
    EXPECT_TRUE(obs.paired);
    EXPECT_DOUBLE_EQ(obs.median_s, 1.0 / 1.25);
    EXPECT_DOUBLE_EQ(obs.ci_low_s, 1.0 / 1.6);
    EXPECT_DOUBLE_EQ(obs.ci_high_s, 1.0 / 1.0);
    Observation def = observe(d, &d);
    EXPECT_DOUBLE_EQ(def.median_s, 1.0) << "the default is 1x against itself";
    EXPECT_DOUBLE_EQ(def.ci_low_s, 1.0 / 1.25) << "with its A/A interval";
    EXPECT_DOUBLE_EQ(def.ci_high_s, 1.0 / 0.8);
    e.paired = {};
    Observation alone = observe(e, &d);
    EXPECT_FALSE(alone.paired);
    EXPECT_DOUBLE_EQ(alone.median_s, 0.5) << "unpaired (an older store): as measured";
    EXPECT_FALSE(observe(paired_evaluation("-a=on", 0.5, {1}, {1}), nullptr).paired) << "no default, nothing to pair";
}

TEST(SearchHistory, BeatsTheDefaultByTheLowerEndOfThePairedSpeedup) {
    SearchHistory history;
    history.min_gain = 0.02;
    Evaluation d = paired_evaluation("", 1.0, {1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1.25, 0.8, 1, 1});
    history.observations.push_back(observe(d, &d));
    // Ratios 1.03 .. 1.2: the lower end 1.03 clears 1.02, although the default's A/A interval
    // reaches 1.25 (the pairs hold the default's noise already).
    Observation clears = observe(paired_evaluation("-a=on", 0.9, {1.03, 1.1, 1.1, 1.1, 1.2, 1.1, 1.1},
                                                   {1, 1, 1, 1, 1, 1, 1}), &d);
    EXPECT_TRUE(history.beats_default(clears));
    EXPECT_TRUE(history.beats(clears, history.observations[0])) << "beats against the default is beats_default";
    Observation short_of = observe(paired_evaluation("-a=on", 0.9, {1.01, 1.1, 1.1, 1.1, 1.2, 1.1, 1.1},
                                                     {1, 1, 1, 1, 1, 1, 1}), &d);
    EXPECT_FALSE(history.beats_default(short_of)) << "lower end 1.01 < 1.02";
    // Drift: the route's own median (0.5) is far below the default's interval; its pairs are not.
    Observation drifted = observe(paired_evaluation("-a=on", 0.5, {1, 1, 1, 1, 1, 1, 1},
                                                    {0.98, 1.02, 1, 1, 0.99, 1, 1.01}), &d);
    EXPECT_FALSE(history.beats_default(drifted));
}

}  // namespace
}  // namespace routetune

namespace routetune {
namespace {

TEST(AutoStrategy, InAWideSpaceItGrowsARouteOfManyGainsAndResumesFromItsHistory) {
    // The issue-13 shape at 1000 knobs: sweeps, then growth. After 200 builds the best route
    // must hold many changes and beat the default clearly; and a fresh strategy given the
    // same history (as after --continue) proposes exactly what the running one proposes.
    SyntheticLandscape landscape(LandscapeOptions::wide(1000, 3));
    Oracle oracle = [&](const Route& r) { return landscape.evaluate(r); };
    auto strategy = make_strategy("auto", landscape.expression(), {});
    SearchHistory history;
    history.observations.push_back(oracle(Route{}));
    run(*strategy, history, oracle, 200);
    const Observation* best = nullptr;
    for (const auto& obs : history.observations)
        if (obs.status == Status::Ok && (best == nullptr || obs.median_s < best->median_s)) best = &obs;
    ASSERT_NE(best, nullptr);
    double speedup = landscape.true_time(Route{}) / landscape.true_time(best->route);
    EXPECT_GT(speedup, 1.7) << "the optimum is " << landscape.best_speedup();  // 1.93 here; sinks: 1.45
    EXPECT_GT(best->route.assignments().size(), 300u);
    auto resumed = make_strategy("auto", landscape.expression(), {});
    EXPECT_EQ(resumed->propose(history, 2), strategy->propose(history, 2));
}


// 420 on/off flags, and -march and -mtune of 12 values each (the dominant knobs auto samples).
Expression flags_and_targets() {
    Expression e;
    for (int k = 0; k < 420; ++k) e.axes.push_back(axis("-f" + std::to_string(k), {"on", "off"}, "off"));
    std::vector<std::string> cpus{"generic", "native"};
    for (int i = 0; i < 10; ++i) cpus.push_back("cpu" + std::to_string(i));
    e.axes.push_back(axis("-march", cpus, "generic"));
    e.axes.push_back(axis("-mtune", cpus, "generic"));
    return e;
}

TEST(AutoStrategy, GrowthStartsFromEachDominantKnobAtItsFastestSample) {
    // -march=native gains 5%, every other -mtune value 3%: growth's first group must hold both
    // (each knob at its best sample, not only the fastest single sample).
    Expression e = flags_and_targets();
    auto oracle = [](const Route& r) {
        double t = 1.0;
        if (r.get("-march") == "native") t *= 0.95;
        if (r.get("-mtune") && r.get("-mtune") != "generic") t *= 0.97;
        return ok(r, t);
    };
    auto strategy = make_strategy("auto", e, {});
    SearchHistory history;
    history.observations.push_back(oracle(Route{}));
    for (const Route& route : run(*strategy, history, oracle, 40)) {
        if (route.assignments().size() < 4) continue;  // the samples and their combination
        EXPECT_EQ(route.get("-march"), "native") << route.to_string();
        EXPECT_TRUE(route.get("-mtune").has_value()) << route.to_string();
        return;
    }
    FAIL() << "growth never started";
}

TEST(AutoStrategy, GrowthStartsFromTheFastestSampleWhenTheDominantKnobsTogetherAreSlower) {
    // -march=native gains 20% and every other -mtune value 4% alone, but together they are 22%
    // slower than -march=native alone (GCC's -mtune overriding what -march tuned, as on the live
    // stencil): growth must grow -march=native alone, never the slower combination (it does not
    // change the dominant knobs again).
    Expression e = flags_and_targets();
    auto oracle = [](const Route& r) {
        bool march = r.get("-march") == "native", tune = r.get("-mtune") && r.get("-mtune") != "generic";
        double t = march && tune ? 0.8 * 1.22 : march ? 0.8 : tune ? 0.96 : 1.0;
        return ok(r, t);
    };
    auto strategy = make_strategy("auto", e, {});
    SearchHistory history;
    history.observations.push_back(oracle(Route{}));
    bool combined = false;
    for (const Route& route : run(*strategy, history, oracle, 60)) {
        combined = combined || (route.get("-march") == "native" && route.get("-mtune"));
        if (route.assignments().size() < 4) continue;  // the samples and their combination
        EXPECT_TRUE(combined) << "the combination was never measured";
        EXPECT_EQ(route.get("-march"), "native") << route.to_string();
        EXPECT_FALSE(route.get("-mtune").has_value()) << "growth started from the slower combination: " << route.to_string();
        return;
    }
    FAIL() << "growth never started";
}

TEST(AutoStrategy, InAWideSpaceItWaitsForBuildsInFlightRatherThanModel) {
    // With the dominant samples in flight growth cannot start; auto proposes nothing more
    // (the scheduler waits) instead of the model phase's guesses.
    Expression e = flags_and_targets();
    auto strategy = make_strategy("auto", e, {});
    SearchHistory history;
    history.observations.push_back(ok(Route{}, 1.0));
    auto samples = strategy->propose(history, 64);
    ASSERT_FALSE(samples.empty());
    for (const Route& route : samples) history.observations.push_back(Observation{route, Status::Pending});
    EXPECT_TRUE(strategy->propose(history, 4).empty());
}

}  // namespace
}  // namespace routetune
