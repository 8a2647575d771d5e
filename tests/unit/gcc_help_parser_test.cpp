// The GCC help parsers against captured output of GCC 12 (Debian) and GCC 13 (Ubuntu).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "adapters/gcc_help_parser.hpp"
#include "routetune/catalog.hpp"

namespace routetune {
namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(ROUTETUNE_FIXTURES) + "/" + name, std::ios::binary);
    EXPECT_TRUE(in) << name;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Catalog catalog_of(const std::string& version) {
    Catalog catalog;
    for (auto& knob : parse_gcc_optimizers(fixture(version + "/optimizers-O2.txt"))) catalog.add(knob);
    for (auto& knob : parse_gcc_params(fixture(version + "/params.txt"))) catalog.add(knob);
    for (auto& knob : parse_gcc_target(fixture(version + "/target.txt"))) catalog.add(knob);
    catalog.add(make_gcc_opt_level_knob({"-O2"}));
    return catalog;
}

const Knob& get(const Catalog& catalog, const std::string& name) {
    const Knob* knob = catalog.find(name);
    if (!knob) throw std::runtime_error("no knob " + name);
    return *knob;
}

TEST(GccHelpParser, Gcc12OptimizersAtO2) {
    auto catalog = catalog_of("gcc12");
    const Knob& unroll = get(catalog, "-funroll-loops");
    EXPECT_EQ(unroll.type, KnobType::Bool);
    EXPECT_EQ(unroll.values, (std::vector<std::string>{"on", "off"}));
    EXPECT_EQ(unroll.default_value, "off");
    EXPECT_EQ(unroll.tags, (std::vector<std::string>{"optimizer"}));
    EXPECT_EQ(get(catalog, "-fgcse").default_value, "on");
    const Knob& cost = get(catalog, "-fvect-cost-model");
    EXPECT_EQ(cost.type, KnobType::Enum);
    EXPECT_EQ(cost.values, (std::vector<std::string>{"unlimited", "dynamic", "cheap", "very-cheap"}));
    EXPECT_EQ(cost.default_value, "very-cheap");
    const Knob& dse = get(catalog, "-flifetime-dse");
    EXPECT_EQ(dse.type, KnobType::Int);
    EXPECT_EQ(dse.min, 0);
    EXPECT_EQ(dse.max, 2);
    EXPECT_EQ(dse.default_value, "2");
    const Knob& stalled = get(catalog, "-fsched-stalled-insns");
    EXPECT_EQ(stalled.type, KnobType::Enum);
    EXPECT_FALSE(stalled.bounded);
    EXPECT_EQ(stalled.default_value, "off");
    EXPECT_TRUE(stalled.allows("4"));
    const Knob& align = get(catalog, "-falign-functions");
    EXPECT_EQ(align.type, KnobType::Enum);
    EXPECT_FALSE(align.bounded);
    EXPECT_EQ(align.values, (std::vector<std::string>{"on", "off"}));
    EXPECT_EQ(align.default_value, "on");
    EXPECT_TRUE(align.allows("32:16"));
    EXPECT_EQ(get(catalog, "-fexcess-precision").default_value, "");
    EXPECT_EQ(catalog.find("-fexceptions"), nullptr);        // [available in Modula-2]
    EXPECT_EQ(catalog.find("-fhandle-exceptions"), nullptr);  // alias
    EXPECT_EQ(catalog.find("-fpatchable-function-entry"), nullptr);
    EXPECT_EQ(get(catalog, "-ffast-math").default_value, "");
    EXPECT_TRUE(get(catalog, "-ffast-math").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-fwrapv").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-fsigned-zeros").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-fallow-store-data-races").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-fsemantic-interposition").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-fexcess-precision").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-fmath-errno").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-fpack-struct").has_tag("unsafe"));
    EXPECT_EQ(get(catalog, "-fshort-enums").default_value, "");  // -Q prints the "target default" 2 as enabled
    EXPECT_FALSE(get(catalog, "-fstrict-aliasing").has_tag("unsafe"));
}

TEST(GccHelpParser, Gcc12Params) {
    auto catalog = catalog_of("gcc12");
    const Knob& unroll = get(catalog, "-param:max-unroll-times");
    EXPECT_EQ(unroll.type, KnobType::Int);
    EXPECT_EQ(unroll.default_value, "8");
    EXPECT_EQ(unroll.min, 0);
    EXPECT_EQ(unroll.max, 2147483647);
    EXPECT_EQ(unroll.tags, (std::vector<std::string>{"param"}));
    const Knob& niter = get(catalog, "-param:avg-loop-niter");
    EXPECT_EQ(niter.min, 1);
    EXPECT_EQ(niter.max, 65536);
    EXPECT_EQ(niter.default_value, "10");
    const Knob& peeling = get(catalog, "-param:vect-max-peeling-for-alignment");
    EXPECT_EQ(peeling.min, 0);
    EXPECT_EQ(peeling.max, 64);
    EXPECT_EQ(peeling.default_value, "");
    EXPECT_TRUE(peeling.has_tag("default-outside-range"));
    const Knob& stride = get(catalog, "-param:prefetch-minimum-stride");
    EXPECT_EQ(stride.min, 0);
    EXPECT_EQ(stride.default_value, "");
    EXPECT_TRUE(stride.has_tag("default-outside-range"));
    const Knob& schedule = get(catalog, "-param:parloops-schedule");
    EXPECT_EQ(schedule.values, (std::vector<std::string>{"static", "dynamic", "guided", "auto", "runtime"}));
    EXPECT_EQ(schedule.default_value, "static");
    const Knob& evrp = get(catalog, "-param:evrp-mode");
    EXPECT_EQ(evrp.type, KnobType::Enum);
    EXPECT_FALSE(evrp.bounded);
    EXPECT_EQ(evrp.default_value, "ranger");
    EXPECT_EQ(catalog.find("-param:lazy-modules"), nullptr);  // [available in C++]
}

TEST(GccHelpParser, Gcc12Target) {
    auto catalog = catalog_of("gcc12");
    const Knob& march = get(catalog, "-march");
    EXPECT_EQ(march.type, KnobType::Enum);
    EXPECT_TRUE(march.bounded);
    EXPECT_EQ(march.default_value, "x86-64");
    EXPECT_TRUE(march.allows("native"));
    EXPECT_TRUE(march.allows("x86-64"));
    EXPECT_TRUE(march.allows("znver3"));
    EXPECT_FALSE(march.allows("znver9"));
    EXPECT_TRUE(get(catalog, "-mtune").allows("native"));
    EXPECT_EQ(get(catalog, "-mtune").default_value, "generic");
    const Knob& width = get(catalog, "-mprefer-vector-width");
    EXPECT_EQ(width.values, (std::vector<std::string>{"128", "256", "512", "none"}));
    EXPECT_EQ(width.default_value, "none");
    EXPECT_EQ(get(catalog, "-mindirect-branch").values, get(catalog, "-mfunction-return").values);
    EXPECT_EQ(get(catalog, "-mstringop-strategy").values.size(), 8u);
    EXPECT_EQ(get(catalog, "-mcmodel").default_value, "");
    EXPECT_EQ(get(catalog, "-mavx2").default_value, "off");
    EXPECT_EQ(get(catalog, "-mred-zone").default_value, "on");
    EXPECT_TRUE(get(catalog, "-mred-zone").has_tag("unsafe"));
    EXPECT_EQ(catalog.find("-mno-red-zone"), nullptr);
    EXPECT_EQ(catalog.find("-mno-sse4"), nullptr);
    EXPECT_NE(catalog.find("-mno-default"), nullptr);
    EXPECT_EQ(catalog.find("-msse5"), nullptr);  // alias of -mavx
    EXPECT_EQ(catalog.find("-mcpu"), nullptr);   // no value, no default
    const Knob& cost = get(catalog, "-mbranch-cost");
    EXPECT_EQ(cost.min, 0);
    EXPECT_EQ(cost.max, 5);
    EXPECT_EQ(cost.default_value, "3");
    EXPECT_TRUE(get(catalog, "-mabi").has_tag("unsafe"));
    EXPECT_TRUE(get(catalog, "-mfpmath").has_tag("unsafe"));
}

TEST(GccHelpParser, Gcc12Counts) {
    auto catalog = catalog_of("gcc12");
    EXPECT_GE(catalog.knobs().size(), 200u);
    std::size_t optimizer = 0, param = 0, target = 0;
    for (const auto& knob : catalog.knobs()) {
        EXPECT_TRUE(is_valid_knob_name(knob.name)) << knob.name;
        if (!knob.default_value.empty()) EXPECT_TRUE(knob.allows(knob.default_value)) << knob.name;
        optimizer += knob.has_tag("optimizer");
        param += knob.has_tag("param");
        target += knob.has_tag("target");
    }
    EXPECT_EQ(param, 278u);
    EXPECT_GE(optimizer, 230u);
    EXPECT_GE(target, 180u);
}

TEST(GccHelpParser, Gcc13ParsesToo) {
    auto catalog = catalog_of("gcc13");
    EXPECT_EQ(get(catalog, "-funroll-loops").default_value, "on");  // Ubuntu's GCC 13 at -O2
    EXPECT_EQ(get(catalog, "-param:max-jump-thread-paths").max, 65536);
    EXPECT_EQ(catalog.find("-param:evrp-mode"), nullptr);
    EXPECT_TRUE(get(catalog, "-march").allows("znver4"));
    EXPECT_EQ(get(catalog, "-fopenmp-target-simd-clone").default_value, "nohost");
}

TEST(GccHelpParser, LanguageOnlyOptionsForTheirLanguage) {
    auto cxx = parse_gcc_optimizers(fixture("gcc12/optimizers-O2.txt"), "C++");
    auto find = [&](const std::string& name) {
        return std::find_if(cxx.begin(), cxx.end(), [&](const Knob& k) { return k.name == name; });
    };
    ASSERT_NE(find("-frtti"), cxx.end());
    EXPECT_EQ(find("-frtti")->default_value, "");
    ASSERT_NE(find("-fno-threadsafe-statics"), cxx.end());
    EXPECT_EQ(find("-fexceptions"), cxx.end());  // Modula-2 only in GCC 12
    EXPECT_EQ(cxx.size(), parse_gcc_optimizers(fixture("gcc12/optimizers-O2.txt")).size() + 5);
    EXPECT_NE(parse_gcc_params(fixture("gcc12/params.txt"), "C++").size(),
              parse_gcc_params(fixture("gcc12/params.txt")).size());
}

TEST(GccHelpParser, Descriptions) {
    auto knobs = parse_gcc_optimizers(fixture("gcc12/optimizers-O2.txt"));
    for (auto& knob : parse_gcc_params(fixture("gcc12/params.txt"))) knobs.push_back(knob);
    for (auto& knob : parse_gcc_target(fixture("gcc12/target.txt"))) knobs.push_back(knob);
    add_gcc_descriptions(knobs, fixture("gcc12/descriptions-O2.txt"));
    auto help = [&](const std::string& name) {
        return std::find_if(knobs.begin(), knobs.end(), [&](const Knob& k) { return k.name == name; })->help;
    };
    EXPECT_EQ(help("-fassociative-math"),
              "Allow optimization for floating-point arithmetic which may change the result of the operation due to rounding.");
    EXPECT_EQ(help("-falign-functions"), "Align the start of functions.");
    EXPECT_EQ(help("-param:avg-loop-niter"), "Average number of iterations of a loop.");
    EXPECT_EQ(help("-param:max-unroll-times"), "The maximum number of unrollings of a single loop.");
    EXPECT_EQ(help("-march"), "Generate code for given CPU.");
    EXPECT_NE(help("-param:vect-max-peeling-for-alignment").find("outside the range"), std::string::npos);
}

TEST(GccHelpParser, ValidArgumentsNote) {
    auto values = parse_gcc_valid_arguments(fixture("gcc12/march-error.txt"));
    ASSERT_FALSE(values.empty());
    EXPECT_EQ(values.front(), "nocona");
    EXPECT_EQ(values.back(), "native");
    EXPECT_EQ(std::count(values.begin(), values.end(), "i386"), 0);
    auto quoted = parse_gcc_valid_arguments(
        "gcc: error: unknown evrp mode \xe2\x80\x98xyz\xe2\x80\x99\n"
        "gcc: note: valid arguments to \xe2\x80\x98--param=evrp-mode=\xe2\x80\x99 are: legacy legacy-first ranger ranger-first\n");
    EXPECT_EQ(quoted, (std::vector<std::string>{"legacy", "legacy-first", "ranger", "ranger-first"}));
    EXPECT_TRUE(parse_gcc_valid_arguments("cc1: error: something else\n").empty());
}

TEST(GccHelpParser, OptLevelAndInactiveTags) {
    EXPECT_EQ(gcc_opt_level({}), "0");
    EXPECT_EQ(gcc_opt_level({"-O2", "-g", "-O"}), "1");
    EXPECT_EQ(gcc_opt_level({"-Ofast"}), "fast");
    EXPECT_EQ(make_gcc_opt_level_knob({"-O3"}).default_value, "3");
    auto knobs = parse_gcc_optimizers(fixture("gcc12/optimizers-O0.txt"));
    tag_inactive_at_o0(knobs);
    auto find = [&](const std::string& name) {
        return *std::find_if(knobs.begin(), knobs.end(), [&](const Knob& k) { return k.name == name; });
    };
    EXPECT_TRUE(find("-fgcse").has_tag("inactive-at-O0"));
    EXPECT_TRUE(find("-finline").has_tag("inactive-at-O0"));
    EXPECT_FALSE(find("-fomit-frame-pointer").has_tag("inactive-at-O0"));
    EXPECT_FALSE(find("-fwrapv").has_tag("inactive-at-O0"));
}

}  // namespace
}  // namespace routetune
