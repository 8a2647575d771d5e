#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/expand_report.hpp"
#include "routetune/error.hpp"
#include "routetune/expression.hpp"
#include "unit/routes_catalog.hpp"

using namespace routetune;

namespace {

using Lines = std::vector<std::string>;

const Catalog& catalog() {
    static const Catalog c = fixture::small_catalog();
    return c;
}

Lines candidates(const std::string& text, ExpansionMode mode, const Catalog& c = catalog()) {
    auto stream = expand(parse_expression(text, c), mode);
    Lines lines;
    while (auto route = stream->next()) lines.push_back(route->to_string());
    return lines;
}

std::string count(const std::string& text, ExpansionMode mode, const Catalog& c = catalog()) {
    return count_candidates(parse_expression(text, c), mode).to_string();
}

// Decimal multiplication on strings, independent of BigCount.
std::string decimal_times(const std::string& number, unsigned factor) {
    std::string result;
    unsigned carry = 0;
    for (auto it = number.rbegin(); it != number.rend(); ++it) {
        unsigned digit = static_cast<unsigned>(*it - '0') * factor + carry;
        result.insert(result.begin(), static_cast<char>('0' + digit % 10));
        carry = digit / 10;
    }
    for (; carry != 0; carry /= 10) result.insert(result.begin(), static_cast<char>('0' + carry % 10));
    return result;
}

// 600 knobs: bools, enums of 2..8 values, ints whose `~` gives 7 or 5 values; every 50th
// (from 7) is unsafe; plus 10 unbounded ints without default that `*=~` must skip.
Catalog synthetic_catalog(std::vector<unsigned>& tilde_sizes) {
    Catalog c;
    for (int i = 0; i < 600; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "-k%03d", i);
        Knob knob;
        unsigned size = 0;
        switch (i % 4) {
            case 0: knob = fixture::bool_knob(name, "off"); size = 2; break;
            case 1: {
                std::vector<std::string> values;
                for (int v = 0; v < 2 + i % 7; ++v) values.push_back("v" + std::to_string(v));
                knob = fixture::enum_knob(name, values, "v0");
                size = static_cast<unsigned>(values.size());
                break;
            }
            case 2: knob = fixture::int_knob(name, 0, 1000, "100"); size = 7; break;  // 0 25 50 100 200 400 1000
            case 3: knob = fixture::int_knob(name, 0, 1000, "1"); size = 5; break;    // 0 1 2 4 1000
        }
        if (i % 50 == 7) {
            knob.tags.push_back("unsafe");
        } else {
            tilde_sizes.push_back(size);
        }
        c.add(knob);
    }
    for (int i = 0; i < 10; ++i) c.add(fixture::int_knob("-open" + std::to_string(i), 0, 0, "", false));
    return c;
}

std::string run(const ExpandRequest& request, const Catalog& c = catalog()) {
    std::ostringstream out;
    EXPECT_EQ(run_expand(c, request, out), 0);
    return out.str();
}

}  // namespace

TEST(Expansion, BaselineSetsOnlyFixedKnobs) {
    auto e = parse_expression("-O=[2|3] -march=native -funroll-loops=on", catalog());
    EXPECT_EQ(baseline_route(e).to_string(), "-funroll-loops=on -march=native");
}

TEST(Expansion, FastIsBaselineThenOneKnobAtATime) {
    EXPECT_EQ(candidates("-O=[2|3|s] -funroll-loops=[on|off] -march=native", ExpansionMode::Fast),
              (Lines{"-march=native", "-O=3 -march=native", "-O=s -march=native", "-funroll-loops=on -march=native"}));
    EXPECT_EQ(count("-O=[2|3|s] -funroll-loops=[on|off] -march=native", ExpansionMode::Fast), "4");
}

TEST(Expansion, FastWithDefaultNotListedOrUnknown) {
    EXPECT_EQ(candidates("-O=[3|s]", ExpansionMode::Fast), (Lines{"", "-O=3", "-O=s"}));
    EXPECT_EQ(count("-O=[3|s]", ExpansionMode::Fast), "3");
    EXPECT_EQ(candidates("-param:nodefault=[1..3]", ExpansionMode::Fast),
              (Lines{"", "-param:nodefault=1", "-param:nodefault=2", "-param:nodefault=3"}));
    EXPECT_EQ(candidates("-param:max-unroll-times=[4..16:*2]", ExpansionMode::Fast),
              (Lines{"", "-param:max-unroll-times=4", "-param:max-unroll-times=16"}));
    EXPECT_EQ(count("-param:max-unroll-times=[4..16:*2]", ExpansionMode::Fast), "3");
}

TEST(Expansion, MixedPhaseOneIsFast) {
    const std::string text = "-O=[1|2|3] -funroll-loops=* -fomit-frame-pointer=off";
    EXPECT_EQ(candidates(text, ExpansionMode::Mixed), candidates(text, ExpansionMode::Fast));
    EXPECT_EQ(count(text, ExpansionMode::Mixed), "4");
}

TEST(Expansion, FullIsTheProductFirstAxisSlowest) {
    EXPECT_EQ(candidates("-O=[2|3] -funroll-loops=[on|off] -march=native", ExpansionMode::Full),
              (Lines{"-O=2 -funroll-loops=on -march=native", "-O=2 -funroll-loops=off -march=native",
                     "-O=3 -funroll-loops=on -march=native", "-O=3 -funroll-loops=off -march=native"}));
    EXPECT_EQ(candidates("-O=[s|3] -param:max-unroll-times=[1..3]", ExpansionMode::Full),
              (Lines{"-O=s -param:max-unroll-times=1", "-O=s -param:max-unroll-times=2", "-O=s -param:max-unroll-times=3",
                     "-O=3 -param:max-unroll-times=1", "-O=3 -param:max-unroll-times=2", "-O=3 -param:max-unroll-times=3"}));
}

TEST(Expansion, EmptyExpressionIsTheDefaultRouteAlone) {
    EXPECT_EQ(candidates("", ExpansionMode::Fast), (Lines{""}));
    EXPECT_EQ(candidates("", ExpansionMode::Full), (Lines{""}));
    EXPECT_EQ(count("", ExpansionMode::Full), "1");
}

TEST(Expansion, CountsMatchEnumeration) {
    for (const std::string text : {"-O=* -funroll-loops=~", "-f*=~ -param:max-unroll-times=[1..64:+7]",
                                   "-O=[0|1|2] -march=[native|x86-64|znver4] -param:nodefault=~", "-param:*=~ -O=g"}) {
        for (auto mode : {ExpansionMode::Fast, ExpansionMode::Full}) {
            EXPECT_EQ(count(text, mode), std::to_string(candidates(text, mode).size())) << text;
        }
    }
    EXPECT_EQ(count("-O=* -funroll-loops=~ -param:max-unroll-times=*", ExpansionMode::Full), "1024");
    EXPECT_EQ(count("-O=* -funroll-loops=~ -param:max-unroll-times=*", ExpansionMode::Fast), "72");  // 1 + 7 + 1 + 63
}

TEST(Expansion, EveryCandidateIsValidAndRoundTrips) {
    for (const std::string text : {"*=~", "-f*=* -O=[s|fast] -param:max-unroll-times=[1..64:*3]", "-march=[native|znver4] -O=~"}) {
        for (auto mode : {ExpansionMode::Fast, ExpansionMode::Full}) {
            auto stream = expand(parse_expression(text, catalog()), mode);
            int seen = 0;
            while (auto route = stream->next()) {
                ASSERT_NO_THROW(validate_route(*route, catalog())) << route->to_string();
                ASSERT_EQ(Route::parse(route->to_string()), *route);
                ++seen;
            }
            EXPECT_GT(seen, 1) << text;
        }
    }
}

TEST(Expansion, StarTildeOverSixHundredKnobsCountsExactly) {
    std::vector<unsigned> sizes;
    Catalog c = synthetic_catalog(sizes);
    auto e = parse_expression("*=~", c);
    ASSERT_EQ(e.axes.size(), sizes.size());
    std::string product = "1";
    std::uint64_t fast = 1;
    for (unsigned size : sizes) {
        product = decimal_times(product, size);
        fast += size - 1;
    }
    std::string full = count_candidates(e, ExpansionMode::Full).to_string();
    EXPECT_EQ(full, product);
    EXPECT_EQ(full.size(), 368u);
    EXPECT_EQ(full.substr(0, 16), "3226010064198923");
    EXPECT_EQ(count_candidates(e, ExpansionMode::Fast).to_string(), std::to_string(fast));
    EXPECT_EQ(fast, 2205u);
}

TEST(Expansion, FullOverAHugeSpaceIsLazy) {
    Catalog c;
    for (int i = 0; i < 30; ++i) c.add(fixture::int_knob("-p" + std::to_string(10 + i), 0, 9, "0"));
    auto e = parse_expression("-p*=*", c);
    auto stream = expand(e, ExpansionMode::Full);
    EXPECT_EQ(stream->count().to_string(), "1" + std::string(30, '0'));
    std::optional<Route> route;
    for (int i = 0; i < 1000; ++i) route = stream->next();
    ASSERT_TRUE(route);
    EXPECT_EQ(route->assignments().size(), 30u);
    EXPECT_EQ(route->get("-p10"), "0");
    EXPECT_EQ(route->get("-p36"), "0");
    EXPECT_EQ(route->get("-p37"), "9");
    EXPECT_EQ(route->get("-p38"), "9");
    EXPECT_EQ(route->get("-p39"), "9");
    EXPECT_EQ(stream->next()->get("-p36"), "1");
}

TEST(Expansion, FastOverAHugeRangeIsLazy) {
    auto stream = expand(parse_expression("-param:huge=[0..1000000000000000000:+1]", catalog()), ExpansionMode::Fast);
    EXPECT_EQ(stream->count().to_string(), "1000000000000000002");
    EXPECT_EQ(stream->next()->to_string(), "");
    EXPECT_EQ(stream->next()->to_string(), "-param:huge=0");
    EXPECT_EQ(stream->next()->to_string(), "-param:huge=1");
}

TEST(ExpandReport, TextListsCandidatesWithDefaultMarker) {
    ExpandRequest request;
    request.routes = "-O=[2|3] -funroll-loops=[on|off]";
    EXPECT_EQ(run(request), "(default)\n-O=3\n-funroll-loops=on\n");
    request.mode = "full";
    EXPECT_EQ(run(request), "-O=2 -funroll-loops=on\n-O=2 -funroll-loops=off\n-O=3 -funroll-loops=on\n-O=3 -funroll-loops=off\n");
    request.limit = 2;
    EXPECT_EQ(run(request), "-O=2 -funroll-loops=on\n-O=2 -funroll-loops=off\n");
    request.count_only = true;
    EXPECT_EQ(run(request), "4\n");
}

TEST(ExpandReport, MixedPrintsPhaseOneAndTheBound) {
    ExpandRequest request;
    request.routes = "-O=[1|2|3] -funroll-loops=[on|off] -param:max-unroll-times=[1..64:*2] -march=native";
    request.mode = "mixed";
    request.mixed_max_knobs = 2;
    std::string out = run(request);
    EXPECT_EQ(out.substr(0, out.find('\n')), "-march=native");
    EXPECT_NE(out.find("\n-O=1 -march=native\n"), std::string::npos) << out;
    EXPECT_EQ(out.substr(out.rfind('\n', out.size() - 2) + 1), "phase two: at most 21 candidates\n");
    auto e = parse_expression(request.routes, catalog());
    EXPECT_EQ(mixed_phase_two_bound(e, 2).to_string(), "21");
    EXPECT_EQ(mixed_phase_two_bound(e, 3).to_string(), "42");
    EXPECT_EQ(mixed_phase_two_bound(e, 10).to_string(), "42");
    EXPECT_EQ(mixed_phase_two_bound(e, 0).to_string(), "0");
    EXPECT_EQ(mixed_phase_two_bound(parse_expression("-O=3", catalog()), 4).to_string(), "0");
}

TEST(ExpandReport, JsonHasModeCountAsNumberAndCandidates) {
    ExpandRequest request;
    request.routes = "-O=[2|3]  -funroll-loops=[on|off]";
    request.json = true;
    auto doc = nlohmann::json::parse(run(request));
    EXPECT_EQ(doc["mode"], "fast");
    EXPECT_EQ(doc["expression"], "-O=[2|3] -funroll-loops=[on|off]");
    EXPECT_EQ(doc["schema_version"], 1);
    EXPECT_EQ(doc["count"], 3);
    EXPECT_EQ(doc["count_exact"], "3");
    EXPECT_EQ(doc["adaptive"], false);
    EXPECT_EQ(doc["candidates"], nlohmann::json::array({"", "-O=3", "-funroll-loops=on"}));
    EXPECT_FALSE(doc.contains("phase_two_bound"));
    request.mode = "mixed";
    doc = nlohmann::json::parse(run(request));
    EXPECT_EQ(doc["phase_two_bound"], 4);
    EXPECT_EQ(doc["phase_two_bound_exact"], "4");
}

TEST(ExpandReport, AnAdaptiveModeListsTheSpaceItSearches) {
    ExpandRequest request;
    request.routes = "-O=[2|3]  -funroll-loops=[on|off]";
    request.json = true;
    for (const std::string mode : {"auto", "random", "model"}) {
        request.mode = mode;
        auto doc = nlohmann::json::parse(run(request));
        EXPECT_EQ(doc["adaptive"], true) << mode;
        EXPECT_EQ(doc["count"], 4) << mode;
        EXPECT_EQ(doc["candidates"].size(), 4u) << mode;
    }
    request.mode = "nonsense";
    EXPECT_THROW(run(request), UsageError);
}

TEST(ExpandReport, HugeCountPrintsInstantly) {
    std::vector<unsigned> sizes;
    Catalog c = synthetic_catalog(sizes);
    ExpandRequest request;
    request.routes = "*=~";
    request.mode = "full";
    request.count_only = true;
    std::string out = run(request, c);
    EXPECT_EQ(out.size(), 369u);
    EXPECT_EQ(out.substr(0, 16), "3226010064198923");
    request.count_only = false;
    request.limit = 3;
    request.json = true;
    auto doc = nlohmann::json::parse(run(request, c));
    EXPECT_EQ(doc["count_exact"].get<std::string>().size(), 368u);
    EXPECT_TRUE(doc["count"].is_null()) << "a count beyond 1e300 has no double";
    EXPECT_EQ(doc["candidates"].size(), 3u);
}

TEST(ExpandReport, UnsafeKnobsJoinGlobsOnRequest) {
    ExpandRequest request;
    request.routes = "-ff*=on";
    request.include_unsafe = true;
    EXPECT_EQ(run(request), "-ffast-math=on\n");
    request.include_unsafe = false;
    std::ostringstream out;
    EXPECT_THROW(run_expand(catalog(), request, out), UsageError);
}

// gcc accepts some flags only as `on` (no -fno- form) and prints 0 as the default of ints
// that mean "the target decides"; `*=~` must neither pin such a flag in every candidate nor
// set such an int to its default explicitly (gcc rejects -mincoming-stack-boundary=0).
Catalog catalog_with_one_way_knobs() {
    Catalog c;
    Knob only_on = fixture::bool_knob("-fstack-protector-all", "off");
    only_on.values = {"on"};
    c.add(only_on);
    c.add(fixture::int_knob("-mincoming-stack-boundary", 0, 0, "0", false));
    c.add(fixture::bool_knob("-funroll-loops", "off"));
    return c;
}

TEST(Expansion, TildeLeavingOutTheDefaultMayStayUnset) {
    Catalog c = catalog_with_one_way_knobs();
    EXPECT_EQ(candidates("*=~", ExpansionMode::Fast, c),
              (Lines{"", "-fstack-protector-all=on", "-funroll-loops=on"}));
    EXPECT_EQ(candidates("*=~", ExpansionMode::Full, c),
              (Lines{"-funroll-loops=on", "-funroll-loops=off", "-fstack-protector-all=on -funroll-loops=on",
                     "-fstack-protector-all=on -funroll-loops=off"}));
    EXPECT_EQ(candidates("-fstack-protector-all=~", ExpansionMode::Full, c), (Lines{"", "-fstack-protector-all=on"}));
    for (const std::string text : {"*=~", "-fstack-protector-all=~ -funroll-loops=[on|off]"})
        for (auto mode : {ExpansionMode::Fast, ExpansionMode::Full})
            EXPECT_EQ(count(text, mode, c), std::to_string(candidates(text, mode, c).size())) << text;
}

TEST(Expansion, ExplicitSingleValueStaysFixed) {
    Catalog c = catalog_with_one_way_knobs();
    EXPECT_EQ(candidates("-fstack-protector-all=on -funroll-loops=~", ExpansionMode::Fast, c),
              (Lines{"-fstack-protector-all=on", "-fstack-protector-all=on -funroll-loops=on"}));
    EXPECT_EQ(candidates("-mincoming-stack-boundary=~", ExpansionMode::Full, c), (Lines{"-mincoming-stack-boundary=0"}));
}

TEST(Expansion, GlobSkipsAKnobWhoseTildeIsItsDefaultAlone) {
    Catalog c = catalog_with_one_way_knobs();
    auto e = parse_expression("-m*=~ -f*=~", c);
    for (const Axis& axis : e.axes) EXPECT_NE(axis.knob, "-mincoming-stack-boundary");
    EXPECT_EQ(e.axes.size(), 2u);
}
