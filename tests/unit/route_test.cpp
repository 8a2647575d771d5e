#include "routetune/route.hpp"

#include <gtest/gtest.h>

#include <random>

#include "routetune/error.hpp"
#include "unit/routes_catalog.hpp"

using routetune::Route;
using routetune::UsageError;

namespace {

std::string parse_error(const std::string& text) {
    try {
        Route::parse(text);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

std::string validate_error(const std::string& text) {
    try {
        routetune::validate_route(Route::parse(text), routetune::fixture::small_catalog());
    } catch (const UsageError& e) {
        return e.what();
    }
    return "no error";
}

void expect_has(const std::string& message, std::initializer_list<const char*> parts) {
    for (const char* part : parts) EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

}  // namespace

TEST(Route, ParsesAndPrintsCanonically) {
    Route route = Route::parse("  -funroll-loops=on\t-O=3   -param:max-unroll-times=16 -march=native ");
    EXPECT_EQ(route.to_string(), "-O=3 -funroll-loops=on -march=native -param:max-unroll-times=16");
    EXPECT_EQ(route.assignments().size(), 4u);
    EXPECT_EQ(route.get("-O"), "3");
    EXPECT_EQ(route.get("-fno-such"), std::nullopt);
}

TEST(Route, EmptyTextIsTheDefaultRoute) {
    EXPECT_TRUE(Route::parse("").empty());
    EXPECT_TRUE(Route::parse("   \n ").empty());
    EXPECT_EQ(Route().to_string(), "");
}

TEST(Route, SetEraseAndCompare) {
    Route route;
    route.set("-b", "1");
    route.set("-a", "2");
    route.set("-b", "3");
    EXPECT_EQ(route.to_string(), "-a=2 -b=3");
    route.erase("-a");
    route.erase("-zz");
    EXPECT_EQ(route.to_string(), "-b=3");
    EXPECT_EQ(route, Route::parse("-b=3"));
    EXPECT_LT(Route::parse("-a=1"), Route::parse("-b=1"));
}

TEST(Route, ValueMayContainEqualsAndColons) {
    Route route = Route::parse("-mtune=generic -param:x=a=b");
    EXPECT_EQ(route.get("-param:x"), "a=b");
    EXPECT_EQ(Route::parse(route.to_string()), route);
}

TEST(Route, HashIsFirst16HexOfSha256OfCanonicalText) {
    EXPECT_EQ(Route::parse("-funroll-loops=on -O=3").hash(), "b103afc7fdb813dd");
    EXPECT_EQ(Route().hash(), "e3b0c44298fc1c14");
    EXPECT_EQ(Route::parse("-O=3 -funroll-loops=on").hash(), Route::parse("-funroll-loops=on   -O=3").hash());
}

TEST(Route, RoundTripsManyRandomRoutes) {
    std::mt19937 rng(42);
    const std::vector<std::string> names = {"-O", "-funroll-loops", "-march", "-param:max-unroll-times", "-mavx2",
                                            "-fno-x", "-param:a:b", "-ftree-vectorize", "-m", "-fx.y_z"};
    const std::vector<std::string> values = {"on", "off", "0", "3", "fast", "native", "x86-64", "16", "-1", "a=b"};
    for (int i = 0; i < 500; ++i) {
        Route route;
        int count = static_cast<int>(rng() % 8);
        for (int k = 0; k < count; ++k) route.set(names[rng() % names.size()], values[rng() % values.size()]);
        Route back = Route::parse(route.to_string());
        ASSERT_EQ(back, route) << route.to_string();
        ASSERT_EQ(back.to_string(), route.to_string());
        ASSERT_EQ(back.hash(), route.hash());
    }
}

TEST(Route, ErrorsNameTheTokenAndPosition) {
    expect_has(parse_error("-O=3 -funroll-loops"), {"token 2", "'-funroll-loops'", "column 6", "NAME=VALUE"});
    expect_has(parse_error("O=3"), {"token 1", "'O=3'", "column 1", "not a knob name"});
    expect_has(parse_error("-O=3  -march="), {"token 2", "'-march='", "column 7", "empty value"});
    expect_has(parse_error("-O=[2|3]"), {"token 1", "'-O=[2|3]'", "column 1", "cannot contain"});
    expect_has(parse_error("-O=a|b"), {"'-O=a|b'", "column 1"});
    expect_has(parse_error("-O=2 -x=1 -O=3"), {"token 3", "'-O=3'", "column 11", "given twice"});
    expect_has(parse_error("-=1"), {"'-=1'", "not a knob name"});
}

TEST(Route, ValidateAcceptsKnownKnobsAndAllowedValues) {
    EXPECT_EQ(validate_error("-O=3 -funroll-loops=on -march=skylake -param:max-unroll-times=64"), "no error");
    EXPECT_EQ(validate_error(""), "no error");
}

TEST(Route, ValidateNamesClosestKnobsForAnUnknownKnob) {
    expect_has(validate_error("-funrol-loops=on"), {"'-funrol-loops=on'", "unknown knob -funrol-loops", "closest: -funroll-loops"});
}

TEST(Route, ValidateNamesTheAllowedValues) {
    expect_has(validate_error("-O=4"), {"'-O=4'", "allowed: 0|1|2|3|s|fast|g|z"});
    expect_has(validate_error("-funroll-loops=yes"), {"'-funroll-loops=yes'", "allowed: on|off"});
    expect_has(validate_error("-param:max-unroll-times=65"), {"'-param:max-unroll-times=65'", "allowed: 1..64"});
    expect_has(validate_error("-param:max-unroll-times=x"), {"allowed: 1..64"});
}

TEST(Route, AControlCharacterInAValueIsRefusedEscaped) {
    std::string nul = parse_error(std::string("-O=3\0-fplugin=evil.so", 22));
    expect_has(nul, {"control character", "\\x00"});
    EXPECT_EQ(nul.find('\0'), std::string::npos);
    expect_has(parse_error("-march=native\x1b[2J"), {"control character", "\\x1b"});
}
