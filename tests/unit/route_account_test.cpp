// Reading the compilers' own accounts for the route check: GCC's `-Q --help=...` states by
// knob (parse_gcc_option_states, gcc_reported_value) and clang's cc1 line and feature macros
// (parse_cc1_arguments, clang_reported_value), on recorded text.
#include <gtest/gtest.h>

#include "adapters/clang_catalog_parser.hpp"
#include "adapters/clang_route_check.hpp"
#include "adapters/gcc_help_parser.hpp"
#include "adapters/gcc_route_check.hpp"
#include "unit/routes_catalog.hpp"

namespace routetune {
namespace {

// Lines of `gcc -Q --help=optimizers --help=params --help=target -O2 -march=native
// -falign-functions=32 -mfpmath=both` (GCC 12.2).
const char* kGccStates =
    "The following options control optimizations:\n"
    "  -fassociative-math          \t\t[disabled]\n"
    "  -ffast-math                 \t\t\n"
    "  -ffp-contract=[off|on|fast] \t\tfast\n"
    "  -fexcess-precision=[fast|standard|16] \t[default]\n"
    "  -falign-functions           \t\t[enabled]\n"
    "  -falign-functions=          \t\t32\n"
    "  -flive-patching             \t\t-flive-patching=inline-clone\n"
    "The following options control parameters:\n"
    "  --param=align-threshold=<1,65536> \t\t100\n"
    "  --param=max-unroll-times=   \t\t8\n"
    "The following options are target specific:\n"
    "  -mavx2                      \t\t[enabled]\n"
    "  -march=                     \t\tznver3\n"
    "  -mfpmath=                   \t\t387+sse\n"
    "  -mfused-madd                \t\t-ffp-contract=fast\n"
    "  Known valid arguments for -march= option:\n"
    "    i386 i486 i586 pentium lakemont pentium-mmx winchip-c6 winchip2 c3 samuel-2 \n"
    "\n";

std::map<std::string, std::string> gcc_states() { return parse_gcc_option_states(kGccStates); }

TEST(GccOptionStates, EachLineIsKeyedByItsKnob) {
    auto states = gcc_states();
    EXPECT_EQ(states.at("-fassociative-math"), "[disabled]");
    EXPECT_EQ(states.at("-ffast-math"), "");
    EXPECT_EQ(states.at("-ffp-contract="), "fast");
    EXPECT_EQ(states.at("-fexcess-precision="), "[default]");
    EXPECT_EQ(states.at("-falign-functions"), "[enabled]");
    EXPECT_EQ(states.at("-falign-functions="), "32");
    EXPECT_EQ(states.at("-flive-patching"), "-flive-patching=inline-clone");
    EXPECT_EQ(states.at("-param:align-threshold="), "100");
    EXPECT_EQ(states.at("-param:max-unroll-times="), "8");
    EXPECT_EQ(states.at("-mavx2"), "[enabled]");
    EXPECT_EQ(states.at("-march="), "znver3");
    EXPECT_EQ(states.count("i386"), 0u);
    EXPECT_EQ(states.size(), 13u);
}

TEST(GccReportedValue, SwitchesValuesAndParamsInTheRoutesTerms) {
    auto states = gcc_states();
    EXPECT_EQ(gcc_reported_value(fixture::bool_knob("-fassociative-math", "off"), "on", states), "off");
    EXPECT_EQ(gcc_reported_value(fixture::bool_knob("-mavx2", "off"), "off", states), "on");
    Knob contract = fixture::enum_knob("-ffp-contract", {"off", "on", "fast"}, "fast");
    EXPECT_EQ(gcc_reported_value(contract, "on", states), "fast");
    Knob unroll = fixture::int_knob("-param:max-unroll-times", 0, 65536, "8");
    EXPECT_EQ(gcc_reported_value(unroll, "16", states), "8");
    EXPECT_EQ(gcc_reported_value(fixture::int_knob("-param:align-threshold", 1, 65536, "100"), "100", states), "100");
    // A merged open enum: on/off read the switch line, other values the value line.
    Knob align = fixture::enum_knob("-falign-functions", {"on", "off"}, "on", false);
    EXPECT_EQ(gcc_reported_value(align, "off", states), "on");
    EXPECT_EQ(gcc_reported_value(align, "16", states), "32");
}

TEST(GccReportedValue, WhatGccDoesNotStateIsLeftToAssertingAgain) {
    auto states = gcc_states();
    EXPECT_EQ(gcc_reported_value(fixture::bool_knob("-ffast-math", "off"), "on", states), std::nullopt);
    EXPECT_EQ(gcc_reported_value(fixture::enum_knob("-fexcess-precision", {"fast", "standard"}, ""), "fast", states),
              std::nullopt);
    EXPECT_EQ(gcc_reported_value(fixture::enum_knob("-O", {"2", "3"}, "2"), "3", states), std::nullopt);
    Knob march = fixture::enum_knob("-march", {"x86-64", "znver3", "native"}, "x86-64");
    EXPECT_EQ(gcc_reported_value(march, "native", states), std::nullopt) << "GCC prints the CPU native found";
    EXPECT_EQ(gcc_reported_value(march, "x86-64", states), "znver3");
    EXPECT_EQ(gcc_reported_value(fixture::bool_knob("-fno-such-option", "off"), "on", states), std::nullopt);
    EXPECT_EQ(gcc_reported_value(fixture::bool_knob("-flive-patching", "off"), "on", states), std::nullopt)
        << "an alias line states no on/off";
}

TEST(GccReportedValue, SpellingsGccTreatsAsOneValueReadAsAsked) {
    auto states = gcc_states();
    Knob fpmath = fixture::enum_knob("-mfpmath", {"387", "sse", "387+sse", "387,sse", "sse+387", "sse,387", "both"}, "sse");
    for (const char* same : {"both", "sse+387", "sse,387", "387,sse", "387+sse"}) {
        EXPECT_EQ(gcc_reported_value(fpmath, same, states), same);
    }
    EXPECT_EQ(gcc_reported_value(fpmath, "sse", states), "387+sse");
}

TEST(GccOptionWarnings, AFlagGccDropsIsNamedByItsWarning) {
    // `gcc -O2 -fassociative-math -Os -fprefetch-loop-arrays -fsyntax-only -x c /dev/null`
    // (GCC 12.2), in the C locale and in a UTF-8 one.
    auto warnings = parse_gcc_option_warnings(
        "cc1: warning: '-fassociative-math' disabled; other options take precedence\n"
        "cc1: warning: \xe2\x80\x98-fprefetch-loop-arrays\xe2\x80\x99 is not supported with "
        "\xe2\x80\x98-Os\xe2\x80\x99\n"
        "cc1: warning: '-mregparm' is ignored in 64-bit mode\n"
        "cc1: warning: variable tracking requested, but useless unless producing debug info\n"
        "cc1: warning: '-fstack-check' is deprecated\n");
    EXPECT_EQ(warnings.size(), 3u);
    EXPECT_EQ(warnings.at("-fassociative-math"),
              "cc1: warning: '-fassociative-math' disabled; other options take precedence");
    EXPECT_EQ(warnings.count("-fprefetch-loop-arrays"), 1u);
    EXPECT_EQ(warnings.count("-Os"), 0u) << "only the subject of the line";
    EXPECT_EQ(warnings.count("-mregparm"), 1u);
}

TEST(GccReportedValue, AWarningThatDropsTheFlagOverridesItsLine) {
    auto states = gcc_states();
    states["warning:-fassociative-math"] = "cc1: warning: '-fassociative-math' disabled; other options take precedence";
    states["warning:-mregparm"] = "cc1: warning: '-mregparm' is ignored in 64-bit mode";
    states["-fassociative-math"] = "[enabled]";
    EXPECT_EQ(gcc_reported_value(fixture::bool_knob("-fassociative-math", "off"), "on", states), "off");
    EXPECT_EQ(gcc_reported_value(fixture::int_knob("-mregparm", 0, 6, "6"), "3", states), "");
    EXPECT_EQ(gcc_reported_value(fixture::bool_knob("-mavx2", "off"), "off", states), "on") << "others read their line";
}

TEST(Cc1Arguments, QuotedItemsWithEscapes) {
    EXPECT_EQ(parse_cc1_arguments(R"( "/usr/lib/llvm-14/bin/clang" "-cc1" "-O2" "-mllvm" "-x=1" "a\"b\\c" "")"),
              (std::vector<std::string>{"/usr/lib/llvm-14/bin/clang", "-cc1", "-O2", "-mllvm", "-x=1", "a\"b\\c", ""}));
    EXPECT_TRUE(parse_cc1_arguments("clang: error: unknown argument").empty());
}

TEST(ClangReportedValue, MllvmOptionsFromTheLineAndIsaSwitchesFromTheMacros) {
    CompilerAccount account;
    account.states["-mllvm:unroll-threshold"] = "300";
    account.states["-mllvm:vectorize-loops"] = "false";
    Knob threshold = fixture::int_knob("-mllvm:unroll-threshold", 0, 1000, "150");
    EXPECT_EQ(clang_reported_value(threshold, "300", account), "300");
    EXPECT_EQ(clang_reported_value(fixture::bool_knob("-mllvm:vectorize-loops", "on"), "on", account), "off");
    EXPECT_EQ(clang_reported_value(fixture::bool_knob("-mllvm:absent", "on"), "on", account), std::nullopt);
    Knob avx = fixture::bool_knob("-mavx", "off");
    EXPECT_EQ(clang_reported_value(avx, "off", account), std::nullopt) << "no macros read";
    account.states["macros"] = "";
    EXPECT_EQ(clang_reported_value(avx, "off", account), "off");
    account.states["macro:__AVX__"] = "";
    EXPECT_EQ(clang_reported_value(avx, "off", account), "on");
    EXPECT_EQ(clang_reported_value(fixture::bool_knob("-mred-zone", ""), "off", account), std::nullopt)
        << "no feature macro seen by discovery";
    EXPECT_EQ(clang_reported_value(fixture::bool_knob("-fvectorize", "on"), "off", account), std::nullopt);
}

TEST(ClangReportedValue, OnlyIsaSwitchesNeedTheMacros) {
    Catalog catalog;
    catalog.add(fixture::bool_knob("-mavx2", "off"));
    catalog.add(fixture::bool_knob("-mred-zone", ""));
    catalog.add(fixture::bool_knob("-fvectorize", "on"));
    EXPECT_TRUE(clang_route_needs_macros(Route::parse("-mavx2=on"), catalog));
    EXPECT_FALSE(clang_route_needs_macros(Route::parse("-mred-zone=off -fvectorize=off"), catalog));
}

}  // namespace
}  // namespace routetune
