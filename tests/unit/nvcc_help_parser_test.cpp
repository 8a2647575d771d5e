// parse_nvcc_help and build_nvcc_catalog against the captured CUDA 13.0 help texts.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "adapters/nvcc_adapter.hpp"
#include "adapters/nvcc_help_parser.hpp"

namespace routetune {
namespace {

std::string read_fixture(const std::string& name) {
    std::ifstream in(std::string(ROUTETUNE_FIXTURES) + "/nvcc13/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(NvccHelpParser, ReadsBoolOptionWithDefault) {
    auto options = parse_nvcc_help(read_fixture("nvcc_help.txt"));
    const auto* ftz = find_help_option(options, "--ftz");
    ASSERT_NE(ftz, nullptr);
    EXPECT_EQ(ftz->short_name, "-ftz");
    EXPECT_EQ(ftz->argument, "{true|false}");
    EXPECT_EQ(ftz->values, (std::vector<std::string>{"true", "false"}));
    EXPECT_EQ(ftz->default_value, "false");
    EXPECT_EQ(ftz->help, "This option controls single-precision denormals support.");
    const auto* prec_div = find_help_option(options, "--prec-div");
    ASSERT_NE(prec_div, nullptr);
    EXPECT_EQ(prec_div->default_value, "true");
}

TEST(NvccHelpParser, ReadsFlagsAndValueOptions) {
    auto options = parse_nvcc_help(read_fixture("nvcc_help.txt"));
    const auto* fast = find_help_option(options, "--use_fast_math");
    ASSERT_NE(fast, nullptr);
    EXPECT_FALSE(fast->takes_value());
    EXPECT_EQ(fast->short_name, "-use_fast_math");
    const auto* vect = find_help_option(options, "--extra-device-vectorization");
    ASSERT_NE(vect, nullptr);
    EXPECT_EQ(vect->short_name, "-extra-device-vectorization");
    EXPECT_FALSE(vect->takes_value());
    const auto* regs = find_help_option(options, "--maxrregcount");
    ASSERT_NE(regs, nullptr);
    EXPECT_EQ(regs->argument, "<amount>");
    EXPECT_TRUE(regs->values.empty());
    EXPECT_EQ(regs->default_value, "");
    const auto* jtd = find_help_option(options, "--jump-table-density");
    ASSERT_NE(jtd, nullptr);
    EXPECT_EQ(jtd->short_name, "-jtd");
    EXPECT_EQ(jtd->default_value, "101");
}

TEST(NvccHelpParser, ReadsAllowedValuesOverSeveralLines) {
    auto options = parse_nvcc_help(read_fixture("nvcc_help.txt"));
    const auto* cudart = find_help_option(options, "--cudart");
    ASSERT_NE(cudart, nullptr);
    EXPECT_EQ(cudart->values, (std::vector<std::string>{"none", "shared", "static"}));
    EXPECT_EQ(cudart->default_value, "static");
    const auto* arch = find_help_option(options, "--gpu-architecture");
    ASSERT_NE(arch, nullptr);
    EXPECT_EQ(arch->short_name, "-arch");
    ASSERT_FALSE(arch->values.empty());
    EXPECT_EQ(arch->values.front(), "all");
    EXPECT_EQ(arch->values.back(), "sm_90a");
    EXPECT_EQ(arch->values.size(), 72u);
    const auto* machine = find_help_option(options, "--machine");
    ASSERT_NE(machine, nullptr);
    EXPECT_EQ(machine->values, (std::vector<std::string>{"64"}));
    const auto* compress = find_help_option(options, "--compress-mode");
    ASSERT_NE(compress, nullptr);
    EXPECT_EQ(compress->values, (std::vector<std::string>{"default", "size", "speed", "balance", "none"}));
}

TEST(NvccHelpParser, HandlesHeadersWithoutShortName) {
    auto options = parse_nvcc_help(read_fixture("nvcc_help.txt"));
    const auto* align = find_help_option(options, "--no-align-double");
    ASSERT_NE(align, nullptr);
    EXPECT_EQ(align->short_name, "");
    EXPECT_FALSE(align->takes_value());
    EXPECT_EQ(options.front().long_name, "--cuda");
    EXPECT_EQ(options.back().long_name, "--options-file");
}

TEST(NvccHelpParser, ReadsPtxasRangesAndAngleLists) {
    auto options = parse_nvcc_help(read_fixture("ptxas_help.txt"));
    const auto* level = find_help_option(options, "--opt-level");
    ASSERT_NE(level, nullptr);
    EXPECT_EQ(level->short_name, "-O");
    EXPECT_EQ(level->default_value, "3");
    const auto* usage = find_help_option(options, "--register-usage-level");
    ASSERT_NE(usage, nullptr);
    ASSERT_TRUE(usage->min.has_value());
    EXPECT_EQ(*usage->min, 0);
    EXPECT_EQ(*usage->max, 10);
    EXPECT_EQ(usage->default_value, "5");
    const auto* ofc = find_help_option(options, "--Ofast-compile");
    ASSERT_NE(ofc, nullptr);
    EXPECT_EQ(ofc->values, (std::vector<std::string>{"0", "min", "mid", "max"}));
    EXPECT_EQ(ofc->default_value, "0");
    const auto* expensive = find_help_option(options, "--allow-expensive-optimizations");
    ASSERT_NE(expensive, nullptr);
    EXPECT_EQ(expensive->values, (std::vector<std::string>{"true", "false"}));
    EXPECT_EQ(expensive->default_value, "");
}

TEST(NvccHelpParser, EmptyAndForeignTextGiveNoOptions) {
    EXPECT_TRUE(parse_nvcc_help("").empty());
    EXPECT_TRUE(parse_nvcc_help("Usage: gcc [options] file...\n  -O2  optimize\n").empty());
}

TEST(NvccCatalog, SelectsTuningKnobsWithHelpValues) {
    Catalog catalog = build_nvcc_catalog(read_fixture("nvcc_help.txt"), read_fixture("ptxas_help.txt"));
    std::vector<std::string> names;
    for (const auto& knob : catalog.knobs()) names.push_back(knob.name);
    EXPECT_EQ(names, (std::vector<std::string>{"-Xptxas:-O", "-Xptxas:-allow-expensive-optimizations",
                                               "-Xptxas:-dlcm", "-Xptxas:-dscm", "-Xptxas:-opt-fp-atomics",
                                               "-Xptxas:-regUsageLevel", "-extra-device-vectorization", "-fmad",
                                               "-ftz", "-jtd", "-maxrregcount", "-prec-div", "-prec-sqrt",
                                               "-restrict", "-use_fast_math"}));
    const Knob* ftz = catalog.find("-ftz");
    EXPECT_EQ(ftz->type, KnobType::Bool);
    EXPECT_EQ(ftz->default_value, "off");
    EXPECT_TRUE(ftz->has_tag("unsafe"));
    EXPECT_EQ(catalog.find("-fmad")->default_value, "on");
    EXPECT_FALSE(catalog.find("-extra-device-vectorization")->has_tag("unsafe"));
    const Knob* level = catalog.find("-Xptxas:-O");
    EXPECT_EQ(level->type, KnobType::Enum);
    EXPECT_EQ(level->values, (std::vector<std::string>{"0", "1", "2", "3"}));
    EXPECT_EQ(level->default_value, "3");
    EXPECT_TRUE(level->has_tag("ptxas"));
    const Knob* usage = catalog.find("-Xptxas:-regUsageLevel");
    EXPECT_EQ(usage->type, KnobType::Int);
    EXPECT_EQ(usage->min, 0);
    EXPECT_EQ(usage->max, 10);
    EXPECT_EQ(usage->default_value, "5");
    const Knob* regs = catalog.find("-maxrregcount");
    EXPECT_EQ(regs->min, 16);
    EXPECT_EQ(regs->max, 255);
    EXPECT_EQ(regs->default_value, "255");
    EXPECT_EQ(catalog.find("-jtd")->default_value, "101");
    EXPECT_EQ(catalog.find("-Xptxas:-dlcm")->values, (std::vector<std::string>{"ca", "cg", "cs", "lu", "cv"}));
}

TEST(NvccCatalog, OmitsPtxasKnobsWithoutPtxasHelpAndMissingOptions) {
    std::string help =
        "--ftz {true|false}                                  (-ftz)\n"
        "        Flush denormals.\n"
        "        Default value:  false.\n";
    Catalog catalog = build_nvcc_catalog(help, "");
    ASSERT_EQ(catalog.knobs().size(), 1u);
    EXPECT_EQ(catalog.knobs()[0].name, "-ftz");
    EXPECT_EQ(catalog.knobs()[0].help, "Flush denormals.");
}

}  // namespace
}  // namespace routetune
