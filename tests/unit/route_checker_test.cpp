// The route check's algorithm (route_checker.hpp) over a fake compiler whose later flag wins
// and whose -ffast-math and -funsafe-math-optimizations set associative math and signed zeros
// (the way GCC's do): a stated knob must state the route's value, an unstated one asserted
// again must change nothing (umbrellas followed by the route's more specific flags), the
// overriding flag is named, a knob the compiler never honours is "even alone", rejected flags
// are not checked, and checks are cached per route and flag list.
#include <gtest/gtest.h>

#include <atomic>

#include "adapters/gcc_flags.hpp"
#include "adapters/gcc_route_check.hpp"
#include "adapters/route_checker.hpp"
#include "unit/routes_catalog.hpp"

namespace routetune {
namespace {

// -ffast-math / -funsafe-math-optimizations set associative math on and signed zeros off (or
// the reverse); -fno-trapping-math is ignored; -fstack-protector and -fstack-protector-all
// set one protection level (the later wins); -fbad is rejected. Associative math, signed
// zeros, trapping math and unsafe math are stated (like GCC's lines), -ffast-math is stated
// blank; everything else is only in the rest of the account.
std::optional<CompilerAccount> fake_account(const std::vector<std::string>& flags, std::atomic<int>* calls) {
    if (calls) ++*calls;
    std::map<std::string, std::string> vars{{"associative-math", "off"}, {"signed-zeros", "on"},
                                            {"trapping-math", "on"}, {"fast-math", "off"},
                                            {"unsafe-math-optimizations", "off"}, {"protection", "none"}};
    for (const auto& flag : flags) {
        if (flag == "-fbad") return std::nullopt;
        if (!flag.starts_with("-f")) continue;
        bool no = flag.starts_with("-fno-");
        std::string name = flag.substr(no ? 5 : 2);
        if (name == "trapping-math") continue;
        if (name == "fast-math" || name == "unsafe-math-optimizations") {
            vars["associative-math"] = no ? "off" : "on";
            vars["signed-zeros"] = no ? "on" : "off";
        }
        if (name == "stack-protector" || name == "stack-protector-all") {
            vars["protection"] = no ? "none" : name;
            continue;
        }
        vars[name] = no ? "off" : "on";
    }
    CompilerAccount account;
    for (const auto& [name, value] : vars) {
        bool stated = name == "associative-math" || name == "signed-zeros" || name == "trapping-math" ||
                      name == "unsafe-math-optimizations";
        if (stated) account.states["-f" + name] = value == "on" ? "[enabled]" : "[disabled]";
        else account.rest += name + "=" + value + "\n";
    }
    account.states["-ffast-math"] = "";
    return account;
}

class RouteChecker : public ::testing::Test {
protected:
    RouteChecker() {
        for (const char* name : {"-fassociative-math", "-fsigned-zeros", "-ftrapping-math", "-ffast-math",
                                 "-funsafe-math-optimizations", "-fstack-protector", "-fstack-protector-all",
                                 "-funrelated-a"}) {
            catalog.add(fixture::bool_knob(name, ""));
        }
        for (int i = 0; i < 10; ++i) catalog.add(fixture::bool_knob("-funrelated-" + std::to_string(i), ""));
        catalog.add(fixture::enum_knob("-O", {"1", "2", "3"}, "2"));
        source.compiler = "Fake";
        source.account = [this](const std::vector<std::string>& flags) { return fake_account(flags, &calls); };
        source.reported = [](const Knob& knob, const std::string& asked, const CompilerAccount& account) {
            return gcc_reported_value(knob, asked, account.states);
        };
        source.flags_of = [](const Knob& knob, const std::string& value) {
            return std::vector<std::string>{gcc_flag_for(knob, value)};
        };
    }

    RouteCheck check(const std::string& route, const std::vector<std::string>& flags) {
        std::vector<std::string> unchecked;
        return check_route_flags(flags, emitted_knobs(Route::parse(route), catalog, source.flags_of, unchecked), source);
    }

    Catalog catalog;
    AccountSource source;
    std::atomic<int> calls{0};
};

TEST_F(RouteChecker, AStatedKnobMustStateTheRoutesValue) {
    const std::string route = "-fassociative-math=on -ffast-math=off";
    RouteCheck good = check(route, {"-O2", "-fno-fast-math", "-fassociative-math"});
    EXPECT_TRUE(good.checked);
    EXPECT_TRUE(good.conflicts.empty());
    RouteCheck bad = check(route, {"-O2", "-fassociative-math", "-fno-fast-math"});
    ASSERT_EQ(bad.conflicts.size(), 1u);
    const KnobConflict& c = bad.conflicts[0];
    EXPECT_EQ(c.knob, "-fassociative-math");
    EXPECT_EQ(c.asked, "on");
    EXPECT_EQ(c.reported, "off");
    EXPECT_EQ(c.overridden_by, (std::vector<std::string>{"-fno-fast-math"}));
    EXPECT_FALSE(c.alone);
    EXPECT_EQ(describe_route_conflicts(bad),
              "Fake would not build the route as recorded: -fassociative-math=on ends as off in Fake's report, "
              "overridden by -fno-fast-math");
}

TEST_F(RouteChecker, AnUnstatedKnobIsAssertedAgainAndMustChangeNothing) {
    // -ffast-math prints no state: asserted again at the end, it would turn associative math
    // back on, so the base's later -fno-associative-math had overridden part of it.
    RouteCheck bad = check("-ffast-math=on", {"-ffast-math", "-fno-associative-math", "-O2"});
    ASSERT_EQ(bad.conflicts.size(), 1u);
    EXPECT_EQ(bad.conflicts[0].knob, "-ffast-math");
    EXPECT_EQ(bad.conflicts[0].reported, "");
    EXPECT_EQ(bad.conflicts[0].overridden_by, (std::vector<std::string>{"-fno-associative-math"}));
    EXPECT_NE(describe_route_conflicts(bad).find("ends as another value"), std::string::npos);
    // The route's own more specific knob after its umbrella is what the route asked for.
    RouteCheck good = check("-ffast-math=on -fassociative-math=off", {"-ffast-math", "-fno-associative-math"});
    EXPECT_TRUE(good.conflicts.empty()) << describe_route_conflicts(good);
}

TEST_F(RouteChecker, AnEnumAssertedAgainNamesTheValueTheCompilerEndsWith) {
    // -O prints no state; a later -O1 (as a base flag here) wins.
    source.account = [this](const std::vector<std::string>& flags) -> std::optional<CompilerAccount> {
        ++calls;
        CompilerAccount account;
        for (const auto& flag : flags) {
            if (flag.starts_with("-O")) account.rest = flag;
        }
        return account;
    };
    RouteCheck bad = check("-O=3", {"-O3", "-O1"});
    ASSERT_EQ(bad.conflicts.size(), 1u);
    EXPECT_EQ(bad.conflicts[0].reported, "1");
    EXPECT_EQ(bad.conflicts[0].overridden_by, (std::vector<std::string>{"-O1"}));
    EXPECT_TRUE(check("-O=3", {"-O1", "-O3"}).conflicts.empty());
}

TEST_F(RouteChecker, AnUnstatedKnobThatEndsTheFlagsCostsNoSecondAccount) {
    calls = 0;
    EXPECT_TRUE(check("-ffast-math=on", {"-O2", "-ffast-math"}).conflicts.empty());
    EXPECT_EQ(calls.load(), 1);
    calls = 0;
    EXPECT_TRUE(check("-ffast-math=on -fassociative-math=off", {"-ffast-math", "-fno-associative-math"}).conflicts.empty());
    EXPECT_EQ(calls.load(), 1) << "only the route's more specific flags follow the umbrella";
}

TEST_F(RouteChecker, UnstatedPeersAreAssertedTogetherInOneAccount) {
    calls = 0;
    RouteCheck good = check("-fassociative-math=on -fstack-protector=on -funrelated-a=on",
                            {"-O2", "-fassociative-math", "-fstack-protector", "-funrelated-a"});
    EXPECT_TRUE(good.conflicts.empty()) << describe_route_conflicts(good);
    calls = 0;
    check("-fstack-protector=on -funrelated-a=on -fassociative-math=on",
          {"-fstack-protector", "-funrelated-a", "-fassociative-math"});
    EXPECT_EQ(calls.load(), 2) << "the account, then both unstated knobs asserted at once";
}

TEST_F(RouteChecker, APeerThatOverridesAnEarlierOneIsFoundDespiteTheJointAssertion) {
    // Asserted again in the same order, -fstack-protector-all would win again and hide it.
    RouteCheck bad = check("-fstack-protector=on -fstack-protector-all=on -funrelated-a=on",
                           {"-O2", "-fstack-protector", "-fstack-protector-all", "-funrelated-a"});
    ASSERT_EQ(bad.conflicts.size(), 1u) << describe_route_conflicts(bad);
    EXPECT_EQ(bad.conflicts[0].knob, "-fstack-protector");
    EXPECT_EQ(bad.conflicts[0].reported, "");
    EXPECT_EQ(bad.conflicts[0].overridden_by, (std::vector<std::string>{"-fstack-protector-all"}));
}

TEST_F(RouteChecker, AFailedJointAssertionIsSplitInHalves) {
    std::string route = "-fstack-protector=on -fstack-protector-all=on";
    std::vector<std::string> flags = {"-fstack-protector", "-fstack-protector-all"};
    for (int i = 0; i < 10; ++i) {
        route += " -funrelated-" + std::to_string(i) + "=on";
        flags.push_back("-funrelated-" + std::to_string(i));
    }
    source.name_overriders = false;
    calls = 0;
    RouteCheck bad = check(route, flags);
    ASSERT_EQ(bad.conflicts.size(), 1u);
    EXPECT_EQ(bad.conflicts[0].knob, "-fstack-protector");
    EXPECT_TRUE(bad.conflicts[0].overridden_by.empty()) << "not searched";
    EXPECT_LE(calls.load(), 10) << "halves settle the nine unrelated switches in two accounts, not nine";
}

TEST_F(RouteChecker, AKnobTheCompilerNeverHonoursIsOverriddenEvenAlone) {
    RouteCheck bad = check("-ftrapping-math=off", {"-O2", "-fno-trapping-math"});
    ASSERT_EQ(bad.conflicts.size(), 1u);
    EXPECT_TRUE(bad.conflicts[0].alone);
    EXPECT_TRUE(bad.conflicts[0].overridden_by.empty());
    EXPECT_NE(describe_route_conflicts(bad).find("even with no other flag"), std::string::npos);
}

TEST_F(RouteChecker, TwoFlagsThatEachOverrideTheKnobAreSeveralTogether) {
    RouteCheck bad = check("-fassociative-math=on",
                           {"-O2", "-fassociative-math", "-fno-fast-math", "-fno-unsafe-math-optimizations"});
    ASSERT_EQ(bad.conflicts.size(), 1u);
    EXPECT_FALSE(bad.conflicts[0].alone);
    EXPECT_TRUE(bad.conflicts[0].overridden_by.empty());
    EXPECT_NE(describe_route_conflicts(bad).find("several of the other flags together"), std::string::npos);
}

TEST_F(RouteChecker, TheOverridingFlagIsFoundAmongManyByHalves) {
    std::vector<std::string> flags = {"-fassociative-math"};
    for (int i = 0; i < 60; ++i) flags.push_back("-funrelated-" + std::to_string(i));
    flags.insert(flags.begin() + 40, "-fno-fast-math");
    calls = 0;
    RouteCheck bad = check("-fassociative-math=on", flags);
    ASSERT_EQ(bad.conflicts.size(), 1u);
    EXPECT_EQ(bad.conflicts[0].overridden_by, (std::vector<std::string>{"-fno-fast-math"}));
    EXPECT_LE(calls.load(), 16) << "bisection, not one account per flag";
}

TEST_F(RouteChecker, AnOverriderFoundForOneKnobIsTriedFirstForTheNext) {
    std::vector<std::string> flags = {"-fassociative-math", "-fno-signed-zeros"};
    for (int i = 0; i < 120; ++i) flags.push_back("-funrelated-" + std::to_string(i));
    flags.insert(flags.begin() + 110, "-fno-fast-math");
    calls = 0;
    check("-fassociative-math=on", flags);
    int one = calls.load();
    calls = 0;
    RouteCheck bad = check("-fassociative-math=on -fsigned-zeros=off", flags);
    ASSERT_EQ(bad.conflicts.size(), 2u);
    EXPECT_EQ(bad.conflicts[0].overridden_by, (std::vector<std::string>{"-fno-fast-math"}));
    EXPECT_EQ(bad.conflicts[1].overridden_by, (std::vector<std::string>{"-fno-fast-math"}));
    EXPECT_LE(calls.load(), one + 1) << "the second conflict costs one account, not a second bisection";
}

TEST_F(RouteChecker, FlagsTheCompilerRejectsAreNotChecked) {
    RouteCheck rejected = check("-fassociative-math=on", {"-fbad", "-fassociative-math", "-fno-fast-math"});
    EXPECT_FALSE(rejected.checked);
    EXPECT_TRUE(rejected.conflicts.empty());
    EXPECT_NE(rejected.note.find("rejects"), std::string::npos);
}

TEST_F(RouteChecker, DeclaredKnobsAreLeftUnchecked) {
    Knob tile = fixture::int_knob("-tile", 1, 64, "8");
    tile.application.argv_template = "-DTILE={value}";
    catalog.add(tile);
    std::vector<std::string> unchecked;
    auto knobs = emitted_knobs(Route::parse("-tile=4 -fassociative-math=on"), catalog, source.flags_of, unchecked);
    EXPECT_EQ(unchecked, (std::vector<std::string>{"-tile"}));
    ASSERT_EQ(knobs.size(), 1u);
    EXPECT_EQ(knobs[0].items, (std::vector<std::string>{"-fassociative-math"}));
}

TEST_F(RouteChecker, AnUmbrellaIsFollowedByTheRoutesMoreSpecificFlagsOnly) {
    std::vector<std::string> unchecked;
    auto knobs = emitted_knobs(Route::parse("-O=3 -fassociative-math=on -ffast-math=off -fsigned-zeros=off"), catalog,
                               source.flags_of, unchecked);
    ASSERT_EQ(knobs.size(), 4u);
    EXPECT_EQ(knobs[0].knob->name, "-O");
    EXPECT_EQ(knobs[0].after, (std::vector<std::string>{"-fno-fast-math", "-fassociative-math", "-fno-signed-zeros"}));
    EXPECT_EQ(knobs[1].knob->name, "-ffast-math");
    EXPECT_EQ(knobs[1].after, (std::vector<std::string>{"-fassociative-math", "-fno-signed-zeros"}));
    EXPECT_TRUE(knobs[2].after.empty());
    EXPECT_TRUE(knobs[3].after.empty());
}

TEST_F(RouteChecker, TheCacheChecksEachRouteAndFlagListOnce) {
    RouteCheckCache cache;
    int runs = 0;
    auto run = [&] {
        ++runs;
        RouteCheck check;
        check.checked = true;
        return check;
    };
    Route route = Route::parse("-fassociative-math=on");
    EXPECT_TRUE(cache.get(route, {"-fassociative-math"}, run).checked);
    EXPECT_TRUE(cache.get(route, {"-fassociative-math"}, run).checked);
    EXPECT_EQ(runs, 1);
    cache.get(route, {"-O3", "-fassociative-math"}, run);
    EXPECT_EQ(runs, 2);
}

}  // namespace
}  // namespace routetune
