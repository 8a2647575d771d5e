// Spec loading: a full spec parses to exact values; every kind of mistake is a UsageError whose
// message names the line, the key or token, and what would be valid.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "routetune/error.hpp"
#include "routetune/spec.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class SpecTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::string pattern = (fs::temp_directory_path() / "routetune-spec-XXXXXX").string();
        ASSERT_NE(mkdtemp(pattern.data()), nullptr);
        dir_ = pattern;
        write("data/a.in", "1 2 3\n");
        write("data/a.out", "6\n");
        write("routes.txt", "-O=[2|3]\n");
    }
    void TearDown() override { fs::remove_all(dir_); }

    void write(const std::string& name, const std::string& text) {
        fs::create_directories((dir_ / name).parent_path());
        std::ofstream(dir_ / name, std::ios::binary) << text;
    }

    Spec parse(const std::string& text) { return parse_spec(text, dir_ / "spec.toml"); }

    /// The UsageError message of parsing text; fails the test when it parses.
    std::string error_of(const std::string& text) {
        try {
            parse(text);
        } catch (const UsageError& error) {
            return error.what();
        }
        ADD_FAILURE() << "expected a UsageError for:\n" << text;
        return {};
    }

    fs::path dir_;
};

const char* kMinimal = R"(
[build]
command = ["{compiler}", "{flags}", "mm.c", "-o", "{artifact}"]
[run]
command = ["{artifact}"]
)";

TEST_F(SpecTest, FullSpecParsesToExactValues) {
    std::string text = R"(name = "matmul"

[compiler]
adapter = "gcc"
path = "tools/gcc"
base = ["-O2", "-g"]

[build]
command = ["{compiler}", "{flags}", "mm.c", "-o{artifact}"]
timeout_s = 120
memory_limit_mb = 2048
nice = 3
cwd = "{workdir}"
env = { LC_ALL = "C" }

[run]
command = ["{artifact}", "{input}", "--metrics={metrics}"]
timeout_s = 2.5
relative_timeout = 0
cwd = "sub/../work"

[timing]
source = "reported"
warmup = 0
repeats = 9
min_gain = 0.05
confirm_rounds = 3
confirm_top = 2

[accuracy]
format = "f32"
metric = "l0"
threshold = 0.001
atol = 1e-5
rtol = 1e-3

[[case]]
name = "typical"
input = "data/a.in"
reference = "./data/a.out"
args = ["--n", "3"]

[[case]]
name = "edge"
input = "data/a.in"

[search]
routes_file = "routes.txt"
mode = "mixed"
max_routes = 50
time_limit_s = 600
mixed_max_knobs = 2
include_unsafe = true
seed = 42

[[knob]]
name = "-tile"
values = ["16", 32, "64"]
default = 32
help = "tile edge"
tags = ["workload"]
argv = "-DTILE={value}"

[[knob]]
name = "-threads"
range = "[1..64]"
env = "OMP_NUM_THREADS"

[[knob]]
name = "-use-simd"
default = true
argv = "-DUSE_SIMD"
)";
    write("spec.toml", text);
    Spec spec = load_spec(dir_ / "spec.toml");
    EXPECT_EQ(spec.file, dir_ / "spec.toml");
    EXPECT_EQ(spec.dir, dir_);
    EXPECT_EQ(spec.name, "matmul");
    EXPECT_EQ(spec.sha256, sha256_hex(text));
    EXPECT_EQ(spec.compiler.adapter, "gcc");
    EXPECT_EQ(spec.compiler.path, (dir_ / "tools/gcc").string());
    EXPECT_EQ(spec.compiler.base, (std::vector<std::string>{"-O2", "-g"}));
    EXPECT_EQ(spec.build.command, (std::vector<std::string>{"{compiler}", "{flags}", "mm.c", "-o{artifact}"}));
    EXPECT_EQ(spec.build.timeout_s, 120);
    EXPECT_EQ(spec.build.memory_limit_mb, 2048u);
    EXPECT_EQ(spec.build.nice, 3);
    EXPECT_EQ(spec.build.cwd, "{workdir}");
    EXPECT_EQ(spec.build.env, (std::map<std::string, std::string>{{"LC_ALL", "C"}}));
    EXPECT_EQ(spec.run.command, (std::vector<std::string>{"{artifact}", "{input}", "--metrics={metrics}"}));
    EXPECT_EQ(spec.run.timeout_s, 2.5);
    EXPECT_EQ(spec.run.relative_timeout, 0);
    EXPECT_EQ(spec.run.cwd, (dir_ / "work").string());
    EXPECT_EQ(spec.timing.source, "reported");
    EXPECT_EQ(spec.timing.warmup, 0);
    EXPECT_EQ(spec.timing.repeats, 9);
    EXPECT_EQ(spec.timing.min_gain, 0.05);
    EXPECT_EQ(spec.timing.confirm_rounds, 3);
    EXPECT_EQ(spec.timing.confirm_top, 2);
    EXPECT_EQ(spec.accuracy.format, "f32");
    EXPECT_EQ(spec.accuracy.metric, "l0");
    EXPECT_EQ(spec.accuracy.threshold, 0.001);
    EXPECT_EQ(spec.accuracy.atol, 1e-5);
    EXPECT_EQ(spec.accuracy.rtol, 1e-3);
    ASSERT_EQ(spec.cases.size(), 2u);
    EXPECT_EQ(spec.cases[0].name, "typical");
    EXPECT_EQ(spec.cases[0].input, dir_ / "data/a.in");
    EXPECT_EQ(spec.cases[0].reference, dir_ / "data/a.out");
    EXPECT_EQ(spec.cases[0].args, (std::vector<std::string>{"--n", "3"}));
    EXPECT_EQ(spec.cases[1].name, "edge");
    EXPECT_TRUE(spec.cases[1].reference.empty());
    EXPECT_EQ(spec.search.routes, "");
    EXPECT_EQ(spec.search.routes_file, (dir_ / "routes.txt").string());
    EXPECT_EQ(spec.search.mode, "mixed");
    EXPECT_EQ(spec.search.max_routes, 50u);
    EXPECT_EQ(spec.search.time_limit_s, 600);
    EXPECT_EQ(spec.search.mixed_max_knobs, 2);
    EXPECT_TRUE(spec.search.include_unsafe);
    EXPECT_EQ(spec.search.seed, 42u);
    ASSERT_EQ(spec.knobs.size(), 3u);
    const Knob& tile = spec.knobs[0];
    EXPECT_EQ(tile.name, "-tile");
    EXPECT_EQ(tile.type, KnobType::Enum);
    EXPECT_EQ(tile.values, (std::vector<std::string>{"16", "32", "64"}));
    EXPECT_EQ(tile.default_value, "32");
    EXPECT_EQ(tile.help, "tile edge");
    EXPECT_EQ(tile.tags, (std::vector<std::string>{"workload"}));
    EXPECT_EQ(tile.application.argv_template, "-DTILE={value}");
    const Knob& threads = spec.knobs[1];
    EXPECT_EQ(threads.type, KnobType::Int);
    EXPECT_TRUE(threads.bounded);
    EXPECT_EQ(threads.min, 1);
    EXPECT_EQ(threads.max, 64);
    EXPECT_EQ(threads.application.env_name, "OMP_NUM_THREADS");
    const Knob& simd = spec.knobs[2];
    EXPECT_EQ(simd.type, KnobType::Bool);
    EXPECT_EQ(simd.values, (std::vector<std::string>{"on", "off"}));
    EXPECT_EQ(simd.default_value, "on");
}

TEST_F(SpecTest, DefaultsFillAMinimalSpec) {
    Spec spec = parse(kMinimal);
    EXPECT_EQ(spec.name, "spec");
    EXPECT_EQ(spec.compiler.adapter, "gcc");
    EXPECT_EQ(spec.compiler.path, "gcc");
    EXPECT_TRUE(spec.compiler.base.empty());
    EXPECT_EQ(spec.build.timeout_s, 300);
    EXPECT_EQ(spec.run.timeout_s, 60);
    EXPECT_EQ(spec.timing.source, "process");
    EXPECT_EQ(spec.timing.repeats, 7);
    EXPECT_EQ(spec.accuracy.metric, "rel_l2");
    EXPECT_EQ(spec.search.mode, "fast");
    ASSERT_EQ(spec.cases.size(), 1u);
    EXPECT_EQ(spec.cases[0].name, "default");
    EXPECT_TRUE(spec.cases[0].input.empty());
    EXPECT_TRUE(spec.knobs.empty());
    EXPECT_EQ(spec.sha256, sha256_hex(kMinimal));
}

TEST_F(SpecTest, AdapterDefaultsAndBareCompilerNames) {
    EXPECT_EQ(parse(std::string("[compiler]\nadapter = \"nvcc\"\n") + kMinimal).compiler.path, "nvcc");
    EXPECT_EQ(parse(std::string("[compiler]\nadapter = \"trtexec\"\n") + kMinimal).compiler.path, "trtexec");
    EXPECT_EQ(parse(std::string("[compiler]\nadapter = \"inductor\"\n") + kMinimal).compiler.path, "python3");
    EXPECT_EQ(parse("[compiler]\nadapter = \"custom\"\n[build]\ncommand = [\"make\"]\n[run]\ncommand = [\"x\"]\n")
                  .compiler.path,
              "");
    EXPECT_EQ(parse(std::string("[compiler]\npath = \"gcc-12\"\n") + kMinimal).compiler.path, "gcc-12");
    EXPECT_EQ(parse(std::string("[compiler]\npath = \"/usr/bin/gcc\"\n") + kMinimal).compiler.path, "/usr/bin/gcc");
}

TEST_F(SpecTest, HostIsaOnlyIsABooleanOfCompiler) {
    EXPECT_TRUE(parse(kMinimal).compiler.host_isa_only);
    EXPECT_FALSE(parse(std::string("[compiler]\nhost_isa_only = false\n") + kMinimal).compiler.host_isa_only);
    std::string message = error_of(std::string("[compiler]\nhost_isa_only = \"no\"\n") + kMinimal);
    EXPECT_EQ(message, (dir_ / "spec.toml").string() + ":2:17: [compiler] host_isa_only: expected a boolean (true or false), got a string");
    message = error_of(std::string("[compiler]\nhost_isa = false\n") + kMinimal);
    EXPECT_NE(message.find("unknown key 'host_isa' in [compiler] (valid keys: adapter, path, base, host_isa_only)"),
              std::string::npos) << message;
}

TEST_F(SpecTest, MalformedTomlNamesLineAndColumn) {
    std::string message = error_of("name = \"x\"\n[build\ncommand = [\"a\"]\n");
    EXPECT_NE(message.find((dir_ / "spec.toml").string() + ":2:"), std::string::npos) << message;
    EXPECT_NE(message.find("malformed TOML"), std::string::npos) << message;
}

TEST_F(SpecTest, UnknownKeyNamesLineValidKeysAndSuggestion) {
    std::string message = error_of("[build]\ncommand = [\"cc\"]\ntimout_s = 5\n[run]\ncommand = [\"x\"]\n");
    EXPECT_EQ(message, (dir_ / "spec.toml").string() +
                           ":3:1: unknown key 'timout_s' in [build] (valid keys: command, timeout_s, "
                           "relative_timeout, relative_timeout_floor_s, memory_limit_mb, max_output_mb, cwd, env, inputs, nice); did you mean 'timeout_s'?");
}

TEST_F(SpecTest, BuildNiceIsTenByDefaultAndANicenessIncrement) {
    EXPECT_EQ(parse(kMinimal).build.nice, 10);
    std::string message = error_of("[build]\ncommand = [\"cc\"]\nnice = 20\n[run]\ncommand = [\"x\"]\n");
    EXPECT_NE(message.find(":3:"), std::string::npos) << message;
    EXPECT_NE(message.find("nice"), std::string::npos) << message;
    EXPECT_NE(message.find("19"), std::string::npos) << message;
}

TEST_F(SpecTest, UnknownTopLevelTable) {
    std::string message = error_of(std::string(kMinimal) + "[acuracy]\nmetric = \"l2\"\n");
    EXPECT_NE(message.find("unknown key 'acuracy' in the top level"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean 'accuracy'?"), std::string::npos) << message;
    EXPECT_NE(message.find(":6:2:"), std::string::npos) << message;
}

TEST_F(SpecTest, WrongTypeNamesLineAndExpectedType) {
    std::string message = error_of(std::string(kMinimal) + "[timing]\nrepeats = \"7\"\n");
    EXPECT_EQ(message, (dir_ / "spec.toml").string() +
                           ":7:11: [timing] repeats: expected an integer, got a string");
    message = error_of(std::string(kMinimal) + "[timing]\nrepeats = 7.5\n");
    EXPECT_NE(message.find("[timing] repeats: expected an integer, got a float"), std::string::npos) << message;
    message = error_of("[build]\ncommand = [\"cc\", 3]\n[run]\ncommand = [\"x\"]\n");
    EXPECT_NE(message.find(":2:18: [build] command: expected an array of strings, found an integer at item 2"),
              std::string::npos) << message;
    message = error_of("[build]\ncommand = \"cc -O2\"\n[run]\ncommand = [\"x\"]\n");
    EXPECT_NE(message.find("[build] command: expected an array of strings, got a string"), std::string::npos) << message;
}

TEST_F(SpecTest, OutOfRangeNumbers) {
    EXPECT_NE(error_of("[build]\ncommand = [\"cc\"]\ntimeout_s = 0\n[run]\ncommand = [\"x\"]\n")
                  .find("[build] timeout_s: must be a number above 0 and at most 10000000, got 0"), std::string::npos);
    EXPECT_NE(error_of(std::string(kMinimal) + "[timing]\nrepeats = 0\n")
                  .find("[timing] repeats: must be an integer from 1 to 100000, got 0"), std::string::npos);
    EXPECT_NE(error_of(std::string(kMinimal) + "[timing]\nwarmup = -1\n")
                  .find("[timing] warmup: must be an integer from 0 to 10000, got -1"), std::string::npos);
    EXPECT_NE(error_of(std::string(kMinimal) + "[accuracy]\nthreshold = -0.5\n")
                  .find("[accuracy] threshold: must be at least 0, got -0.5"), std::string::npos);
    EXPECT_NE(error_of(std::string(kMinimal) + "[timing]\nmin_gain = -0.01\n")
                  .find("[timing] min_gain: must be a number at least 0 and at most 100, got -0.01"), std::string::npos);
}

TEST_F(SpecTest, BadEnumerationListsValidValues) {
    std::string message = error_of(std::string(kMinimal) + "[accuracy]\nmetric = \"rel-l2\"\n");
    EXPECT_EQ(message, (dir_ / "spec.toml").string() +
                           ":7:10: [accuracy] metric: 'rel-l2' is not one of exact, l0, l1, l2, linf, rel_l2, cos; "
                           "did you mean 'rel_l2'?");
    message = error_of(std::string(kMinimal) + "[timing]\nsource = \"wall\"\n");
    EXPECT_NE(message.find("[timing] source: 'wall' is not one of process, reported"), std::string::npos) << message;
    message = error_of(std::string(kMinimal) + "[search]\nmode = \"exhaustive\"\n");
    EXPECT_NE(message.find("is not one of fast, full, mixed, random, greedy, evolve, model, auto"), std::string::npos);
    message = error_of(std::string("[compiler]\nadapter = \"icc\"\n") + kMinimal);
    EXPECT_NE(message.find("[compiler] adapter: 'icc' is not one of gcc, clang, nvcc, trtexec, inductor, custom"),
              std::string::npos) << message;
}

TEST_F(SpecTest, CommandsMustBeNonEmpty) {
    EXPECT_NE(error_of("[build]\ncommand = []\n[run]\ncommand = [\"x\"]\n").find("[build] command: must not be empty"),
              std::string::npos);
    EXPECT_NE(error_of("[build]\ntimeout_s = 3\n[run]\ncommand = [\"x\"]\n").find("'command' is required"),
              std::string::npos);
    EXPECT_NE(error_of("[build]\ncommand = [\"x\"]\n").find("the spec has no [run] table"), std::string::npos);
}

TEST_F(SpecTest, UnknownPlaceholderIsNamed) {
    std::string message = error_of("[build]\ncommand = [\"cc\", \"-o{artefact}\"]\n[run]\ncommand = [\"x\"]\n");
    EXPECT_EQ(message, (dir_ / "spec.toml").string() +
                           ":2:11: [build] command: unknown placeholder {artefact} in '-o{artefact}' (valid: "
                           "{compiler}, {flags}, {artifact}, {input}, {output}, {metrics}, {workdir}, {spec_dir}); "
                           "did you mean {artifact}?");
}

TEST_F(SpecTest, PlaceholderPlacementRules) {
    EXPECT_NE(error_of("[build]\ncommand = [\"cc\", \"-x{flags}\"]\n[run]\ncommand = [\"x\"]\n")
                  .find("{flags} stands for several argv items and must be a command item of its own"),
              std::string::npos);
    EXPECT_NE(error_of("[build]\ncommand = [\"cc\", \"{input}\"]\n[run]\ncommand = [\"x\"]\n")
                  .find("[build] command: {input} belongs to one run of one case"),
              std::string::npos);
    EXPECT_NE(error_of("[build]\ncommand = [\"cc\"]\n[run]\ncommand = [\"x\"]\nenv = { A = \"{nope}\" }\n")
                  .find("[run] env: unknown placeholder {nope}"),
              std::string::npos);
    EXPECT_NE(error_of(std::string(kMinimal) + "[timing]\nsource = \"reported\"\n")
                  .find("needs {metrics} in the run command"),
              std::string::npos);
    EXPECT_NO_THROW(parse("[build]\ncommand = [\"cc\"]\n[run]\ncommand = [\"x\"]\nenv = { M = \"{metrics}\" }\n"
                          "[timing]\nsource = \"reported\"\n"));
    EXPECT_NO_THROW(parse("[build]\ncommand = [\"python3\", \"-c\", \"d = {'a': {}}\"]\n[run]\ncommand = [\"x\"]\n"));
}

TEST_F(SpecTest, ConfirmBuildsDefaultsToTheAdaptersAndIsAtLeastThreeWhereBuildsVary) {
    EXPECT_EQ(parse(kMinimal).timing.confirm_builds, 1) << "gcc's builds do not vary";
    EXPECT_EQ(parse(std::string("[compiler]\nadapter = \"inductor\"\n") + kMinimal).timing.confirm_builds, 3);
    EXPECT_EQ(parse(std::string("[compiler]\nadapter = \"trtexec\"\n") + kMinimal).timing.confirm_builds, 3);
    EXPECT_EQ(parse(std::string(kMinimal) + "[timing]\nconfirm_builds = 2\n").timing.confirm_builds, 2);
    EXPECT_EQ(parse(std::string("[compiler]\nadapter = \"inductor\"\n") + kMinimal + "[timing]\nconfirm_builds = 5\n")
                  .timing.confirm_builds,
              5);
    std::string message =
        error_of(std::string("[compiler]\nadapter = \"inductor\"\n") + kMinimal + "[timing]\nconfirm_builds = 2\n");
    EXPECT_NE(message.find("[timing] confirm_builds: the inductor adapter's builds differ in speed from build to build: "
                           "confirm_builds must be at least 3"),
              std::string::npos)
        << message;
}

TEST_F(SpecTest, ARunServerNeedsReportedTimingAndNamesOnlyWhatEveryRunShares) {
    const std::string reported = "[timing]\nsource = \"reported\"\n";
    const std::string run = "[build]\ncommand = [\"cc\"]\n[run]\ncommand = [\"x\", \"{metrics}\"]\n";
    Spec spec = parse(run + "server = [\"python3\", \"{spec_dir}/peer.py\"]\n" + reported);
    EXPECT_EQ(spec.run.server, (std::vector<std::string>{"python3", "{spec_dir}/peer.py"}));
    EXPECT_TRUE(parse(run + reported).run.server.empty());
    EXPECT_NE(error_of(run + "server = [\"peer\"]\n").find("a warm measurement process needs [timing] source = \"reported\""),
              std::string::npos);
    EXPECT_NE(error_of(run + "server = [\"peer\", \"{artifact}\"]\n" + reported)
                  .find("{artifact} in '{artifact}': the measurement process serves every route and case"),
              std::string::npos);
    EXPECT_NE(error_of(run + "server = []\n" + reported).find("[run] server: must name a command"), std::string::npos);
}

TEST_F(SpecTest, CompilerPlaceholderNeedsACompilerPath) {
    std::string message = error_of(std::string("[compiler]\nadapter = \"custom\"\n") + kMinimal);
    EXPECT_EQ(message, (dir_ / "spec.toml").string() +
                           ":5:11: [build] command: uses {compiler}, but adapter 'custom' has no default compiler: "
                           "set [compiler] path");
    EXPECT_EQ(parse(std::string("[compiler]\nadapter = \"custom\"\npath = \"./make.sh\"\n") + kMinimal).compiler.path,
              (dir_ / "make.sh").string());
}

TEST_F(SpecTest, EnvironmentNamesAreChecked) {
    std::string message = error_of("[build]\ncommand = [\"cc\"]\nenv = { \"A B\" = \"1\" }\n[run]\ncommand = [\"x\"]\n");
    EXPECT_NE(message.find("[build] env: 'A B' is not an environment variable name"), std::string::npos) << message;
}

TEST_F(SpecTest, InputPlaceholderNeedsAnInputInEveryCase) {
    std::string message = error_of(
        "[build]\ncommand = [\"cc\"]\n[run]\ncommand = [\"x\", \"{input}\"]\n"
        "[[case]]\nname = \"a\"\ninput = \"data/a.in\"\n[[case]]\nname = \"b\"\n");
    EXPECT_EQ(message, (dir_ / "spec.toml").string() +
                           ":8:1: [[case]] #2: case 'b' has no input, but {input} is used by [run]");
    message = error_of("[build]\ncommand = [\"cc\"]\n[run]\ncommand = [\"x\", \"{input}\"]\n");
    EXPECT_NE(message.find("uses {input}, but the spec declares no [[case]] with an input"), std::string::npos);
}

TEST_F(SpecTest, MissingInputFileNamesCaseAndPath) {
    std::string message = error_of(std::string(kMinimal) + "[[case]]\nname = \"big\"\ninput = \"data/big.in\"\n");
    EXPECT_EQ(message, (dir_ / "spec.toml").string() + ":8:9: [[case]] #1 input: case 'big': input file "
                           "'data/big.in' not found (looked for " + (dir_ / "data/big.in").string() + ")");
    message = error_of(std::string(kMinimal) + "[[case]]\nname = \"a\"\nreference = \"data/a.gold\"\n");
    EXPECT_NE(message.find("case 'a': reference file 'data/a.gold' not found"), std::string::npos) << message;
}

TEST_F(SpecTest, DuplicateCaseName) {
    std::string message = error_of(std::string(kMinimal) + "[[case]]\nname = \"a\"\n[[case]]\nname = \"a\"\n");
    EXPECT_EQ(message, (dir_ / "spec.toml").string() + ":9:8: [[case]] #2 name: duplicate case name 'a'");
}

TEST_F(SpecTest, BadDeclaredKnobs) {
    auto knob_error = [&](const std::string& table) { return error_of(std::string(kMinimal) + "[[knob]]\n" + table); };
    EXPECT_NE(knob_error("name = \"tile\"\nvalues = [\"1\"]\n").find("'tile' is not a knob name"), std::string::npos);
    EXPECT_NE(knob_error("values = [\"1\"]\n").find("[[knob]] #1: 'name' is required"), std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\nvalues = [\"1\", \"1\"]\n").find("duplicate value '1'"), std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\nmin = 4\nmax = 2\n").find("min 4 is greater than max 2"), std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\nrange = \"1-4\"\n").find("'1-4' is not an integer range like \"[1..64]\""),
              std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\nvalues = [\"a\", \"b\"]\ndefault = \"c\"\n").find("'c' is not allowed (valid: a|b)"),
              std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\nrange = \"[1..8]\"\nargv = \"-DT\"\n").find("must contain {value} for an int knob"),
              std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\nvalues = [\"a\"]\nargv = \"-D{val}\"\n").find("unknown placeholder {val}"),
              std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\nenv = \"9X\"\n").find("is not an environment variable name"), std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\ntype = \"bool\"\nvalues = [\"x\"]\n").find("a bool knob takes no values list"),
              std::string::npos);
    EXPECT_NE(knob_error("name = \"-t\"\ntype = \"float\"\n").find("'float' is not one of bool, enum, int"),
              std::string::npos);
    std::string message = knob_error("name = \"-t\"\nvalue = [\"a\"]\n");
    EXPECT_NE(message.find(":8:1: unknown key 'value' in [[knob]] #1"), std::string::npos) << message;
    EXPECT_NE(message.find("did you mean 'values'?"), std::string::npos) << message;
    EXPECT_NE(error_of(std::string(kMinimal) + "[[knob]]\nname = \"-t\"\n[[knob]]\nname = \"-t\"\n")
                  .find("duplicate knob '-t'"), std::string::npos);
}

TEST_F(SpecTest, RoutesAndRoutesFileExcludeEachOther) {
    EXPECT_NE(error_of(std::string(kMinimal) + "[search]\nroutes = \"-O=3\"\nroutes_file = \"routes.txt\"\n")
                  .find("give either routes or routes_file, not both"), std::string::npos);
    EXPECT_NE(error_of(std::string(kMinimal) + "[search]\nroutes_file = \"nope.txt\"\n")
                  .find("file 'nope.txt' not found"), std::string::npos);
}

TEST_F(SpecTest, LoadSpecReportsUnreadableFile) {
    try {
        load_spec(dir_ / "absent.toml");
        FAIL() << "expected a UsageError";
    } catch (const UsageError& error) {
        EXPECT_EQ(std::string(error.what()), "cannot read spec '" + (dir_ / "absent.toml").string() +
                                                 "': No such file or directory");
    }
}

TEST_F(SpecTest, AControlCharacterInADeclaredKnobValueIsRefusedNamingFileLineAndKnob) {
    // TOML's "\u0000" is a real NUL in the value: "16<NUL>-fplugin=x" would reach the compiler as
    // -DTILE=16 (issue 25); other control characters would change the flag.
    for (const std::string value : {"\"16\\u0000-fplugin=evil.so\"", "\"16\\u001b[2J\"", "\"a\\u007f\""}) {
        std::string error = error_of(std::string(kMinimal) + "[[knob]]\nname = \"-tile\"\nvalues = [\"8\", " + value +
                                     "]\nargv = \"-DTILE={value}\"\n");
        EXPECT_NE(error.find("spec.toml:"), std::string::npos) << error;
        EXPECT_NE(error.find("knob '-tile'"), std::string::npos) << error;
        EXPECT_NE(error.find("control character"), std::string::npos) << error;
        EXPECT_EQ(error.find('\0'), std::string::npos) << "the message itself carries the raw byte";
    }
    std::string default_error = error_of(std::string(kMinimal) + "[[knob]]\nname = \"-mode\"\nvalues = [\"x\"]\n"
                                         "default = \"x\\u0001\"\nargv = \"-DMODE={value}\"\n");
    EXPECT_NE(default_error.find("control character"), std::string::npos) << default_error;
}

}  // namespace
}  // namespace routetune
