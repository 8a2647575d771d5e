// Clang's self-descriptions as captured from Debian's clang 14.0.6 (tests/fixtures/clang14),
// and the default rules of clang_defaults.cpp on made-up driver lines and macro sets.
#include <gtest/gtest.h>

#include <algorithm>

#include "adapters/clang_catalog_parser.hpp"
#include "adapters/clang_defaults.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

std::string fixture(const std::string& name) { return read_file(ROUTETUNE_FIXTURES "/clang14/" + name).value(); }

const Knob* find(const std::vector<Knob>& knobs, const std::string& name) {
    auto at = std::find_if(knobs.begin(), knobs.end(), [&](const Knob& knob) { return knob.name == name; });
    return at == knobs.end() ? nullptr : &*at;
}

std::vector<Knob> llvm_knobs(const std::string& target_prefix) {
    return parse_llvm_options(fixture("llvm-help-list-hidden.txt"), fixture("llvm-print-all-options-O2.txt"), target_prefix);
}

TEST(ClangCatalogParser, OptimisationSwitchesOfTheDriversList) {
    auto entries = parse_clang_autocomplete(fixture("autocomplete-f.txt"));
    for (auto& entry : parse_clang_autocomplete(fixture("autocomplete-m.txt"))) entries.push_back(entry);
    EXPECT_EQ(entries.size(), 907u + 526u);
    auto knobs = clang_switch_knobs(entries);
    for (const char* name : {"-fvectorize", "-fslp-vectorize", "-funroll-loops", "-fomit-frame-pointer", "-mavx2", "-msse4.1"}) {
        ASSERT_NE(find(knobs, name), nullptr) << name;
        EXPECT_EQ(find(knobs, name)->values, (std::vector<std::string>{"on", "off"})) << name;
        EXPECT_TRUE(find(knobs, name)->default_value.empty()) << name;
    }
    EXPECT_TRUE(find(knobs, "-fvectorize")->has_tag("optimizer"));
    EXPECT_TRUE(find(knobs, "-mavx2")->has_tag("target"));
    EXPECT_EQ(find(knobs, "-fvectorize")->help, "Enable the loop vectorization passes");
    for (const char* name : {"-fcolor-diagnostics", "-fmodules", "-fno-vectorize", "-fgnu89-inline", "-march", "-mno-avx2",
                             "-fsanitize-trap", "-mabi"}) {
        EXPECT_EQ(find(knobs, name), nullptr) << name;
    }
    EXPECT_TRUE(find(knobs, "-ffast-math")->has_tag("unsafe"));
    EXPECT_TRUE(find(knobs, "-fapprox-func")->has_tag("unsafe"));
    EXPECT_TRUE(find(knobs, "-mms-bitfields")->has_tag("unsafe"));
    EXPECT_FALSE(find(knobs, "-funroll-loops")->has_tag("unsafe"));
}

TEST(ClangCatalogParser, LlvmOptionsWithTypesRangesAndDefaults) {
    auto knobs = llvm_knobs("x86-");
    const Knob* unroll = find(knobs, "-mllvm:unroll-threshold");
    ASSERT_NE(unroll, nullptr);
    EXPECT_EQ(unroll->type, KnobType::Int);
    EXPECT_TRUE(unroll->bounded);
    EXPECT_EQ(unroll->min, 0);
    EXPECT_EQ(unroll->max, 4294967295LL);
    EXPECT_EQ(unroll->default_value, "0");
    EXPECT_EQ(unroll->help, "The cost threshold for loop unrolling");
    EXPECT_TRUE(unroll->has_tag("mllvm"));
    const Knob* inline_threshold = find(knobs, "-mllvm:inline-threshold");
    ASSERT_NE(inline_threshold, nullptr);
    EXPECT_FALSE(inline_threshold->bounded);  // <int>: no range known
    EXPECT_EQ(inline_threshold->default_value, "225");
    EXPECT_EQ(find(knobs, "-mllvm:vectorize-loops")->default_value, "on");
    EXPECT_EQ(find(knobs, "-mllvm:licm-control-flow-hoisting")->default_value, "off");
    const Knob* regalloc = find(knobs, "-mllvm:regalloc");
    ASSERT_NE(regalloc, nullptr);
    EXPECT_EQ(regalloc->values, (std::vector<std::string>{"pbqp", "greedy", "fast", "basic", "default"}));
    EXPECT_EQ(regalloc->default_value, "default");
    EXPECT_NE(find(knobs, "-mllvm:x86-cmov-converter"), nullptr);
    EXPECT_TRUE(find(knobs, "-mllvm:enable-unsafe-fp-math")->has_tag("unsafe"));
    for (const char* name : {"-mllvm:aarch64-ccmp-limit", "-mllvm:verify-machineinstrs", "-mllvm:hwasan-inline-all-checks",
                             "-mllvm:polly-enable-prune-unprofitable", "-mllvm:disable-cgp", "-mllvm:vliw-misched-reg-pressure",
                             "-mllvm:view-bfi-func-name", "-mllvm:x86-asm-syntax", "-mllvm:accel-tables", "-mllvm:version"}) {
        EXPECT_EQ(find(knobs, name), nullptr) << name;
    }
    auto arm = llvm_knobs("aarch64-");
    EXPECT_NE(find(arm, "-mllvm:aarch64-ccmp-limit"), nullptr);
    EXPECT_EQ(find(arm, "-mllvm:x86-cmov-converter"), nullptr);
}

TEST(ClangCatalogParser, CpusOfTheTargetMode) {
    auto valid = parse_clang_valid_cpus(fixture("march-error.txt"));
    EXPECT_NE(std::find(valid.begin(), valid.end(), "x86-64"), valid.end());
    EXPECT_NE(std::find(valid.begin(), valid.end(), "znver3"), valid.end());
    EXPECT_EQ(std::find(valid.begin(), valid.end(), "i386"), valid.end());  // not in 64-bit mode
    auto all = parse_clang_cpus(fixture("supported-cpus.txt"));
    EXPECT_EQ(all.size(), 86u);
    EXPECT_NE(std::find(all.begin(), all.end(), "i386"), all.end());
    EXPECT_EQ(llvm_target_prefix("x86_64-pc-linux-gnu"), "x86-");
    EXPECT_EQ(llvm_target_prefix("aarch64-linux-gnu"), "aarch64-");
}

TEST(ClangDefaults, TheFormThatChangesNothingIsTheDefault) {
    EXPECT_EQ(switch_default("cc1 -O2", "cc1 -O2", "cc1 -O2 -fno-vectorize"), "on");
    EXPECT_EQ(switch_default("cc1 -O2", "cc1 -O2 -fmerge-all-constants", "cc1 -O2"), "off");
    EXPECT_EQ(switch_default("cc1 -O2", "cc1 -O2 -funroll-loops", "cc1 -O2 -fno-unroll-loops"), "");
    EXPECT_EQ(switch_default("cc1 -O2", "cc1 -O2", "cc1 -O2"), "");
}

TEST(ClangDefaults, TargetFeaturesFromTheirMacros) {
    std::vector<Knob> knobs = {Knob{.name = "-msse4.1"}, Knob{.name = "-mavx2"}, Knob{.name = "-mred-zone"},
                               Knob{.name = "-fvectorize"}};
    auto base = defined_macros("#define __SSE4_1__ 1\n#define __x86_64__ 1\n");
    auto all_on = defined_macros("#define __SSE4_1__ 1\n#define __AVX2__ 1\n#define __FVECTORIZE__ 1\n");
    EXPECT_EQ(base, (std::set<std::string>{"__SSE4_1__", "__x86_64__"}));
    set_target_defaults(knobs, base, all_on);
    EXPECT_EQ(knobs[0].default_value, "on");
    EXPECT_EQ(knobs[1].default_value, "off");
    EXPECT_EQ(knobs[2].default_value, "");
    EXPECT_EQ(knobs[3].default_value, "");  // -f switches are told from driver lines
}

}  // namespace
}  // namespace routetune
