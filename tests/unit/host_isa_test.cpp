// The host-ISA filter on recorded GCC 12 output (tests/fixtures/gcc12/march-*-target.txt:
// `gcc -march=X -Q --help=target` on an AMD EPYC, znver3 without MWAITX under its hypervisor),
// and what `~` makes of the values it leaves out.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "adapters/gcc_help_parser.hpp"
#include "adapters/host_isa.hpp"
#include "adapters/host_isa_probe.hpp"
#include "report/left_out_note.hpp"
#include "routetune/expression.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

std::string fixture(const std::string& name) {
    auto text = read_file(std::string(ROUTETUNE_FIXTURES) + "/gcc12/" + name);
    EXPECT_TRUE(text.has_value()) << name;
    return text.value_or("");
}

Catalog gcc12_catalog() {
    auto knobs = parse_gcc_target(fixture("target.txt"));
    add_gcc_descriptions(knobs, fixture("descriptions-O2.txt"));
    Catalog catalog;
    for (auto& knob : knobs) catalog.add(std::move(knob));
    return catalog;
}

CpuIsaTable recorded_table() {
    CpuIsaTable table;
    for (std::string cpu : {"bdver3", "x86-64", "x86-64-v3", "x86-64-v4", "sapphirerapids", "skylake", "znver3"}) {
        table.enables[cpu] = gcc_enabled_switches(fixture("march-" + cpu + "-target.txt"));
    }
    table.unknown.insert("i386");
    return table;
}

HostIsa host_from(const std::string& file) {
    std::string text = fixture(file);
    return HostIsa{gcc_march_value(text), gcc_enabled_switches(text)};
}

const LeftOutValue* left_out(const Catalog& catalog, const std::string& knob, const std::string& value) {
    return catalog.find(knob)->left_out_reason(value);
}

TEST(HostIsa, ReadsTheSwitchesNativeEnables) {
    HostIsa host = host_from("march-native-znver3-target.txt");
    EXPECT_EQ(host.cpu, "znver3");
    for (const char* on : {"-mavx2", "-msha", "-msse4.2", "-mfma", "-mvaes"}) EXPECT_EQ(host.enabled.count(on), 1u) << on;
    for (const char* off : {"-mavx512f", "-mamx-tile", "-mxop", "-mfma4", "-mmwaitx"}) EXPECT_EQ(host.enabled.count(off), 0u) << off;
    EXPECT_EQ(host.enabled.count("-march="), 0u);
}

TEST(HostIsa, IsaSwitchesAreTheOnesGccSaysSupportAnInstructionSet) {
    auto switches = gcc_isa_switches(gcc12_catalog());
    for (const char* isa : {"-mavx512f", "-msse4.2", "-mxop", "-m3dnow", "-mamx-tile", "-mcx16", "-msahf"})
        EXPECT_EQ(switches.count(isa), 1u) << isa;
    // Code generation switches that -march also moves, but that need no instruction.
    for (const char* other : {"-mred-zone", "-m80387", "-maccumulate-outgoing-args", "-mvzeroupper", "-mtune"})
        EXPECT_EQ(switches.count(other), 0u) << other;
    EXPECT_GT(switches.size(), 80u);
}

TEST(HostIsa, LeavesOutWhatAZnver3WithoutAvx512CannotRun) {
    Catalog catalog = gcc12_catalog();
    auto switches = gcc_isa_switches(catalog);
    std::size_t count = leave_out_host_unrunnable(catalog, switches, host_from("march-native-znver3-target.txt"), recorded_table());
    ASSERT_NE(left_out(catalog, "-mavx512f", "on"), nullptr);
    EXPECT_NE(left_out(catalog, "-mavx512f", "on")->reason.find("znver3"), std::string::npos);
    EXPECT_EQ(left_out(catalog, "-mavx512f", "off"), nullptr);
    EXPECT_EQ(left_out(catalog, "-mavx2", "on"), nullptr);
    const LeftOutValue* bdver3 = left_out(catalog, "-march", "bdver3");
    ASSERT_NE(bdver3, nullptr);
    EXPECT_NE(bdver3->reason.find("-mfma4"), std::string::npos) << bdver3->reason;
    EXPECT_NE(bdver3->reason.find("-mxop"), std::string::npos) << bdver3->reason;
    ASSERT_NE(left_out(catalog, "-march", "x86-64-v4"), nullptr);
    EXPECT_NE(left_out(catalog, "-march", "x86-64-v4")->reason.find("-mavx512f"), std::string::npos);
    EXPECT_NE(left_out(catalog, "-march", "sapphirerapids"), nullptr);
    // This hypervisor hides MWAITX, and skylake enables HLE and SGX, which this AMD CPU lacks:
    // GCC emits those only through their built-in functions, so both values stay, while the
    // switches themselves lose "on".
    EXPECT_EQ(host_from("march-znver3-target.txt").enabled.count("-mmwaitx"), 1u);
    EXPECT_EQ(host_from("march-skylake-target.txt").enabled.count("-mhle"), 1u);
    for (const char* kept : {"x86-64", "x86-64-v3", "native", "znver3", "skylake"})
        EXPECT_EQ(left_out(catalog, "-march", kept), nullptr) << kept;
    EXPECT_NE(left_out(catalog, "-mmwaitx", "on"), nullptr);
    EXPECT_NE(left_out(catalog, "-mhle", "on"), nullptr);
    EXPECT_EQ(left_out(catalog, "-march", "haswell"), nullptr);  // not in the table: unknown, so kept
    EXPECT_TRUE(catalog.find("-mtune")->left_out.empty());
    EXPECT_EQ(count, left_out_values(catalog).size());
}

TEST(HostIsa, AnAvx512HostKeepsAvx512AndStillLacksXop) {
    Catalog catalog = gcc12_catalog();
    leave_out_host_unrunnable(catalog, gcc_isa_switches(catalog), host_from("march-sapphirerapids-target.txt"), recorded_table());
    EXPECT_EQ(left_out(catalog, "-mavx512f", "on"), nullptr);
    EXPECT_EQ(left_out(catalog, "-march", "x86-64-v4"), nullptr);
    EXPECT_EQ(left_out(catalog, "-march", "sapphirerapids"), nullptr);
    EXPECT_NE(left_out(catalog, "-mxop", "on"), nullptr);
    EXPECT_NE(left_out(catalog, "-march", "bdver3"), nullptr);
}

TEST(HostIsa, ARealSapphireRapidsHostKeepsAvx512AndAmx) {
    // `gcc -march=native -Q --help=target` of GCC 13 on the GPU machine's Xeon (gcc13/README.md),
    // against GCC 12's catalog and table: the switch names are the same.
    auto text = read_file(std::string(ROUTETUNE_FIXTURES) + "/gcc13/march-native-sapphirerapids-target.txt");
    ASSERT_TRUE(text.has_value());
    HostIsa host{gcc_march_value(*text), gcc_enabled_switches(*text)};
    EXPECT_EQ(host.cpu, "sapphirerapids");
    Catalog catalog = gcc12_catalog();
    leave_out_host_unrunnable(catalog, gcc_isa_switches(catalog), host, recorded_table());
    for (const char* kept : {"x86-64-v4", "sapphirerapids", "skylake", "x86-64-v3"})
        EXPECT_EQ(left_out(catalog, "-march", kept), nullptr) << kept;
    for (const char* on : {"-mavx512f", "-mamx-tile", "-mavx512fp16"}) EXPECT_EQ(left_out(catalog, on, "on"), nullptr) << on;
    for (const char* lacking : {"-mxop", "-mfma4", "-mtbm", "-m3dnow"}) EXPECT_NE(left_out(catalog, lacking, "on"), nullptr) << lacking;
    ASSERT_NE(left_out(catalog, "-march", "bdver3"), nullptr);
    ASSERT_NE(left_out(catalog, "-march", "znver3"), nullptr);
    EXPECT_NE(left_out(catalog, "-march", "znver3")->reason.find("-msse4a"), std::string::npos)
        << left_out(catalog, "-march", "znver3")->reason;
}

TEST(HostIsa, ASecondHostReplacesTheFirstOnesMarks) {
    Catalog catalog = gcc12_catalog();
    auto switches = gcc_isa_switches(catalog);
    leave_out_host_unrunnable(catalog, switches, host_from("march-native-znver3-target.txt"), recorded_table());
    leave_out_host_unrunnable(catalog, switches, host_from("march-sapphirerapids-target.txt"), recorded_table());
    EXPECT_EQ(left_out(catalog, "-mavx512f", "on"), nullptr);
    EXPECT_EQ(left_out(catalog, "-march", "x86-64-v4"), nullptr);
}

TEST(HostIsa, TableRoundTripsThroughJson) {
    CpuIsaTable table = recorded_table();
    auto back = cpu_isa_table_from_json(cpu_isa_table_to_json(table));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->enables, table.enables);
    EXPECT_EQ(back->unknown, table.unknown);
    EXPECT_TRUE(back->knows("i386"));
    EXPECT_FALSE(back->knows("haswell"));
    EXPECT_FALSE(cpu_isa_table_from_json("{\"cpus\": 3}").has_value());
    EXPECT_FALSE(cpu_isa_table_from_json("not json").has_value());
}

TEST(HostIsa, CatalogJsonKeepsLeftOutValues) {
    Catalog catalog = gcc12_catalog();
    leave_out_host_unrunnable(catalog, gcc_isa_switches(catalog), host_from("march-native-znver3-target.txt"), recorded_table());
    Catalog back = catalog_from_json(catalog_to_json(catalog));
    ASSERT_EQ(back.find("-march")->left_out.size(), catalog.find("-march")->left_out.size());
    EXPECT_EQ(back.find("-march")->left_out[0].reason, catalog.find("-march")->left_out[0].reason);
    EXPECT_EQ(catalog_to_json(gcc12_catalog()).find("left_out"), std::string::npos);
}

// A compiler that answers from the recorded outputs and counts what it was asked.
struct RecordedCompiler {
    std::string native_file = "march-native-znver3-target.txt";
    std::atomic<int> native_runs{0}, cpu_runs{0};
    std::optional<HostIsa> operator()(const std::string& march) {
        if (march == "native") {
            ++native_runs;
            return host_from(native_file);
        }
        ++cpu_runs;
        if (march != "bdver3" && march != "x86-64-v4" && march != "x86-64") return std::nullopt;
        return host_from("march-" + march + "-target.txt");
    }
};

TEST(HostIsaProbe, TheTableIsCachedAndTheHostIsAskedEveryTime) {
    auto dir = std::filesystem::temp_directory_path() / ("routetune-host-isa-probe-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    CatalogCache cache(dir);
    RecordedCompiler compiler;
    IsaOfCpu ask = [&](const std::string& march) { return compiler(march); };
    Catalog first = gcc12_catalog();
    std::size_t march_values = first.find("-march")->values.size() - 1;  // native is never asked as a table entry
    HostIsaOutcome outcome = apply_host_isa(first, gcc_isa_switches(first), ask, &cache, "table");
    EXPECT_EQ(outcome.compiler_runs, 1 + march_values);
    EXPECT_EQ(compiler.cpu_runs.load(), static_cast<int>(march_values));
    EXPECT_NE(first.find("-march")->left_out_reason("bdver3"), nullptr);
    auto stored = cpu_isa_table_from_json(cache.load_text("table").value_or(""));
    ASSERT_TRUE(stored.has_value());
    EXPECT_EQ(stored->enables.size(), 3u);
    EXPECT_TRUE(stored->unknown.count("haswell"));
    compiler.native_file = "march-sapphirerapids-target.txt";  // another machine, the same cache
    Catalog second = gcc12_catalog();
    outcome = apply_host_isa(second, gcc_isa_switches(second), ask, &cache, "table");
    EXPECT_EQ(outcome.compiler_runs, 1u);
    EXPECT_EQ(compiler.native_runs.load(), 2);
    EXPECT_EQ(second.find("-march")->left_out_reason("x86-64-v4"), nullptr);
    EXPECT_EQ(second.find("-mavx512f")->left_out_reason("on"), nullptr);
    EXPECT_NE(second.find("-march")->left_out_reason("bdver3"), nullptr);
    std::filesystem::remove_all(dir);
}

TEST(HostIsaProbe, NoAnswerForNativeMarksNothing) {
    Catalog catalog = gcc12_catalog();
    IsaOfCpu silent = [](const std::string&) { return std::optional<HostIsa>(HostIsa{}); };
    HostIsaOutcome outcome = apply_host_isa(catalog, gcc_isa_switches(catalog), silent, nullptr, "table");
    EXPECT_EQ(outcome.left_out, 0u);
    EXPECT_NE(outcome.skipped, "");
    EXPECT_TRUE(left_out_values(catalog).empty());
    IsaOfCpu failing = [](const std::string&) { return std::optional<HostIsa>(); };
    EXPECT_NE(apply_host_isa(catalog, gcc_isa_switches(catalog), failing, nullptr, "table").skipped, "");
    EXPECT_NE(apply_host_isa(catalog, {}, failing, nullptr, "table").skipped, "");
}

class HostIsaExpression : public ::testing::Test {
protected:
    void SetUp() override {
        catalog_ = gcc12_catalog();
        leave_out_host_unrunnable(catalog_, gcc_isa_switches(catalog_), host_from("march-native-znver3-target.txt"), recorded_table());
    }
    const Axis* axis(const Expression& expression, const std::string& knob) {
        for (const auto& a : expression.axes) {
            if (a.knob == knob) return &a;
        }
        return nullptr;
    }
    Catalog catalog_;
};

TEST_F(HostIsaExpression, TildeLeavesOutWhatTheHostCannotRun) {
    Expression expression = parse_expression("-march=~", catalog_);
    const Axis* march = axis(expression, "-march");
    ASSERT_NE(march, nullptr);
    EXPECT_FALSE(march->values.contains("bdver3"));
    EXPECT_FALSE(march->values.contains("x86-64-v4"));
    EXPECT_TRUE(march->values.contains("x86-64-v3"));
    EXPECT_TRUE(march->values.contains("native"));
    EXPECT_EQ(expression.left_out.size(), catalog_.find("-march")->left_out.size());
    EXPECT_EQ(expression.left_out.front().knob, "-march");
}

TEST_F(HostIsaExpression, AGlobSkipsSwitchesTheHostLacks) {
    Expression expression = parse_expression("-mavx*=~", catalog_);
    EXPECT_EQ(axis(expression, "-mavx512f"), nullptr);
    ASSERT_NE(axis(expression, "-mavx2"), nullptr);  // off at the default -march=x86-64; the host has it
    EXPECT_TRUE(axis(expression, "-mavx2")->values.contains("on"));
    bool lists_avx512f = false;
    for (const auto& entry : expression.left_out) lists_avx512f = lists_avx512f || (entry.knob == "-mavx512f" && entry.value == "on");
    EXPECT_TRUE(lists_avx512f);
}

TEST_F(HostIsaExpression, ExplicitValuesAreTriedAsWritten) {
    Expression expression = parse_expression("-march=[bdver3|x86-64] -mavx512f=on", catalog_);
    EXPECT_TRUE(axis(expression, "-march")->values.contains("bdver3"));
    EXPECT_TRUE(axis(expression, "-mavx512f")->values.contains("on"));
    EXPECT_TRUE(expression.left_out.empty());
    Expression overridden = parse_expression("-m*=~ -march=[bdver3|x86-64]", catalog_);
    EXPECT_TRUE(axis(overridden, "-march")->values.contains("bdver3"));
    for (const auto& entry : overridden.left_out) EXPECT_NE(entry.knob, "-march");
    EXPECT_FALSE(overridden.left_out.empty());
}

TEST_F(HostIsaExpression, ExplicitLeftOutValuesAreWarnedOf) {
    Expression expression = parse_expression("-march=[bdver3|x86-64] -mavx512f=on", catalog_);
    std::string warnings = explicit_left_out_warnings(expression, catalog_);
    EXPECT_NE(warnings.find("warning: -march=bdver3 is written explicitly"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("warning: -mavx512f=on is written explicitly"), std::string::npos) << warnings;
    EXPECT_EQ(warnings.find("x86-64 is written"), std::string::npos) << warnings;
    EXPECT_EQ(explicit_left_out_warnings(parse_expression("-march=~ -mavx512f=~", catalog_), catalog_), "");
}

TEST_F(HostIsaExpression, NotesNameTheKnobsAndTheWayBack) {
    Expression expression = parse_expression("-march=~ -mavx512f=~ -mxop=~", catalog_);
    std::string summary = left_out_summary(expression.left_out);
    EXPECT_NE(summary.find("-march=["), std::string::npos) << summary;
    EXPECT_NE(summary.find("-mavx512f=on"), std::string::npos) << summary;
    EXPECT_NE(summary.find("host_isa_only = false"), std::string::npos) << summary;
    std::string details = left_out_details(expression.left_out);
    EXPECT_NE(details.find("  -march=bdver3: needs "), std::string::npos) << details;
    EXPECT_EQ(left_out_summary({}), "");
    EXPECT_EQ(left_out_details({}), "");
}

}  // namespace
}  // namespace routetune
