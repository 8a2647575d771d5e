// Batch probing against a fake compiler: exact accept masks and exact compile counts.
#include <gtest/gtest.h>

#include <algorithm>

#include "util/files.hpp"

#include "adapters/gcc_probe.hpp"

namespace routetune {
namespace {

bool has(const std::vector<std::string>& flags, const std::string& flag) {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

// Rejects -bad1 (naming it), -bad2 (a "sorry" naming nothing), -x1 with -x2 (a line quoting
// both), -mno-bionic, -mcmodel=32, --param=p=-1, and prints the -march note for bogus values.
ProbeCompile fake_gcc(const std::vector<std::string>& flags) {
    std::string err;
    if (has(flags, "-bad1")) err += "gcc: error: unrecognized command-line option '-bad1'; did you mean '-b'?\n";
    if (has(flags, "-bad2")) err += "cc1: sorry, unimplemented: not in this mode\ncc1: error: bad\n";
    if (has(flags, "-x1") && has(flags, "-x2")) err += "cc1: error: '-x1' is incompatible with '-x2'\n";
    if (has(flags, "-mno-bionic")) err += "gcc: error: unrecognized command-line option '-mno-bionic'\n";
    if (has(flags, "-mcmodel=32")) err += "cc1: error: code model '32' not supported in the 64 bit mode\n";
    if (has(flags, "--param=p=-1")) err += "gcc: error: argument to '--param=p=' should be a non-negative integer\n";
    for (const auto& flag : flags) {
        if (flag.starts_with("-march=") && flag != "-march=znver3" && flag != "-march=x86-64") {
            err += "cc1: error: bad value '" + flag.substr(7) + "' for '-march=' switch\n";
            err += "cc1: note: valid arguments to '-march=' switch are: x86-64 znver3\n";
        }
    }
    return {err.empty(), err};
}

TEST(GccProbe, NamedFlagsAreSetAsideAndTheRestBisected) {
    std::vector<std::string> flags = {"-a", "-bad1", "-b", "-bad2", "-x1", "-x2", "-c", "-d"};
    std::size_t compiles = 0;
    auto verdicts = probe_flags(flags, fake_gcc, compiles);
    const auto yes = FlagVerdict::Accepted;
    const auto no = FlagVerdict::Rejected;
    EXPECT_EQ(verdicts, (std::vector<FlagVerdict>{yes, no, yes, no, yes, yes, yes, yes}));
    EXPECT_EQ(compiles, 12u);
}

TEST(GccProbe, AllAcceptedCostsOneCompile) {
    std::size_t compiles = 0;
    EXPECT_EQ(probe_flags({"-a", "-b"}, fake_gcc, compiles),
              (std::vector<FlagVerdict>{FlagVerdict::Accepted, FlagVerdict::Accepted}));
    EXPECT_EQ(compiles, 1u);
    compiles = 0;
    EXPECT_TRUE(probe_flags({}, fake_gcc, compiles).empty());
    EXPECT_EQ(compiles, 0u);
}

TEST(GccProbe, KnobsAreRestrictedToWhatCompiles) {
    Knob bionic{.name = "-mbionic", .type = KnobType::Bool, .values = {"on", "off"}, .default_value = "off"};
    Knob cmodel{.name = "-mcmodel", .type = KnobType::Enum, .values = {"small", "32"}};
    Knob param{.name = "-param:p", .type = KnobType::Int, .min = -1, .max = 10, .default_value = "3"};
    param.tags = {"param"};
    Knob march{.name = "-march", .type = KnobType::Enum, .values = {"i386", "x86-64"}, .default_value = "x86-64"};
    std::vector<Knob> knobs = {bionic, cmodel, param, march};
    auto report = probe_gcc_knobs(knobs, fake_gcc);
    ASSERT_EQ(knobs.size(), 4u);
    EXPECT_EQ(knobs[0].values, (std::vector<std::string>{"on"}));
    EXPECT_EQ(knobs[1].values, (std::vector<std::string>{"small"}));
    EXPECT_EQ(knobs[2].min, 0);
    EXPECT_EQ(knobs[2].max, 10);
    EXPECT_EQ(knobs[3].values, (std::vector<std::string>{"x86-64", "znver3", "native"}));
    EXPECT_EQ(knobs[3].default_value, "x86-64");
    EXPECT_EQ(report.rejected_values, 3u);
    EXPECT_EQ(report.dropped_knobs, 0u);
    std::vector<Knob> dropped = {Knob{.name = "-mcmodel", .type = KnobType::Enum, .values = {"32"}}};
    EXPECT_EQ(probe_gcc_knobs(dropped, fake_gcc).dropped_knobs, 1u);
    EXPECT_TRUE(dropped.empty());
}

// GCC 12.2's own words (tests/fixtures/gcc12): the lines of ignored-warnings.txt whose quoted
// flag is compiled, the -mstore-max= note for a value outside 128 256 512 none.
ProbeCompile captured_gcc(const std::vector<std::string>& flags) {
    static const std::string warnings = read_file(ROUTETUNE_FIXTURES "/gcc12/ignored-warnings.txt").value();
    static const std::string store_max = read_file(ROUTETUNE_FIXTURES "/gcc12/store-max-error.txt").value();
    std::string err;
    std::size_t start = 0;
    while (start < warnings.size()) {
        std::size_t end = warnings.find('\n', start);
        std::string line = warnings.substr(start, end - start + 1);
        start = end + 1;
        for (const auto& flag : flags) {
            if (line.find("'" + flag + "'") != std::string::npos) err += line;
        }
    }
    bool failed = false;
    for (const auto& flag : flags) {
        if (!flag.starts_with("-mstore-max=") || has({"-mstore-max=128", "-mstore-max=256", "-mstore-max=512", "-mstore-max=none"}, flag)) continue;
        std::string error = store_max;
        error.replace(error.find("routetune-invalid-value"), 23, flag.substr(12));
        err += error;
        failed = true;
    }
    return {!failed, err};
}

TEST(GccProbe, FlagsAWarningCallsNoOpsAreIgnored) {
    std::vector<std::string> flags = {"-mmpx", "-mavx2", "-mrtd", "-fsection-anchors", "-mno-mpx", "-mpcommit"};
    std::size_t compiles = 0;
    const auto yes = FlagVerdict::Accepted;
    const auto ignored = FlagVerdict::Ignored;
    EXPECT_EQ(probe_flags(flags, captured_gcc, compiles),
              (std::vector<FlagVerdict>{ignored, yes, ignored, ignored, yes, ignored}));
    EXPECT_EQ(compiles, 1u);
}

TEST(GccProbe, AWarningClassNameSaysNothing) {
    ProbeCompile warns = {true, "cc1: warning: '-fx' changes attributes [-Wignored-attributes]\n"};
    std::size_t compiles = 0;
    EXPECT_EQ(probe_flags({"-fx"}, [&](const std::vector<std::string>&) { return warns; }, compiles),
              (std::vector<FlagVerdict>{FlagVerdict::Accepted}));
}

TEST(GccProbe, DeprecatedSwitchesAreNoKnobs) {
    std::vector<Knob> knobs;
    for (const char* name : {"-mmpx", "-mpcommit", "-mmitigate-rop", "-mavx2"}) {
        knobs.push_back(Knob{.name = name, .type = KnobType::Bool, .values = {"on", "off"}, .default_value = "off"});
        knobs.back().tags = {"target"};
    }
    auto report = probe_gcc_knobs(knobs, captured_gcc);
    ASSERT_EQ(knobs.size(), 1u);
    EXPECT_EQ(knobs[0].name, "-mavx2");
    EXPECT_EQ(knobs[0].values, (std::vector<std::string>{"on", "off"}));
    EXPECT_EQ(report.dropped_knobs, 3u);
}

TEST(GccProbe, OpenTargetValuesComeFromTheCompilersList) {
    Knob store_max{.name = "-mstore-max", .type = KnobType::Int, .bounded = false, .default_value = "128"};
    store_max.tags = {"target"};
    Knob param{.name = "-param:open", .type = KnobType::Int, .bounded = false, .default_value = "3"};
    param.tags = {"param"};
    std::vector<Knob> knobs = {store_max, param};
    probe_gcc_knobs(knobs, captured_gcc);
    ASSERT_EQ(knobs.size(), 2u);
    EXPECT_EQ(knobs[0].type, KnobType::Enum);
    EXPECT_TRUE(knobs[0].bounded);
    EXPECT_EQ(knobs[0].values, (std::vector<std::string>{"128", "256", "512", "none"}));
    EXPECT_EQ(knobs[0].default_value, "128");
    EXPECT_EQ(knobs[1].type, KnobType::Int);  // params keep their integer ranges
}

}  // namespace
}  // namespace routetune
