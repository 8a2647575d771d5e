// The documented build recipes, run for real (GNU Make, CMake, GCC) on a promoted copy of
// tests/fixtures/tiles (route -O3 with TILE=16): examples/make_flags (routetune.mk) and
// examples/cmake_flags (the installed routetune_target_flags). Each must build the lock's route
// (its flags, as the binary's recorded switches show, and its environment, as the compiler saw
// it), stop with routetune's message when routetune is not installed or the lock is missing or
// stale, never build without the route by accident, and build the spec's default route only
// when asked to fall back. CMake re-checks the lock on every build, not only at configure.
#include <gtest/gtest.h>

#include <cctype>

#include "e2e/cli_harness.hpp"
#include "e2e/promoted_tiles.hpp"

namespace routetune::e2e {
namespace {

const std::string kLock = "routetune.lock.json";

CliResult run_program(const std::vector<std::string>& argv, const fs::path& cwd, std::map<std::string, std::string> env) {
    ProcessSpec spec;
    spec.argv = argv;
    spec.cwd = cwd;
    env.emplace("XDG_CACHE_HOME", shared_cache_home().string());
    spec.env = env;
    spec.timeout_s = 300;
    spec.output_cap = 8 << 20;
    ProcessResult result = run_process(spec);
    return CliResult{result.outcome == ProcessOutcome::Exited ? result.exit_code : -1, result.out, result.err};
}

// PATH with the built routetune first, or PATH as the tests got it (where routetune is not).
std::map<std::string, std::string> path_env(bool with_routetune) {
    std::string path = std::getenv("PATH");
    if (with_routetune) path = fs::path(ROUTETUNE_BINARY).parent_path().string() + ":" + path;
    return {{"PATH", path}};
}

// The switches GCC recorded in binary (-frecord-gcc-switches), one string.
std::string recorded_switches(const fs::path& binary) {
    CliResult shown = run_program({"readelf", "-p", ".GCC.command.line", binary.string()}, binary.parent_path(), {});
    EXPECT_EQ(shown.exit_code, 0) << shown.err;
    return shown.out;
}

bool has_switch(const std::string& switches, const std::string& flag) {
    return switches.find(" " + flag + "\n") != std::string::npos || switches.find(" " + flag + " ") != std::string::npos;
}

// A compiler wrapper that notes the TILE each compile of tiles.c was started with (the route's
// environment), then runs gcc.
fs::path write_recording_compiler(const fs::path& dir) {
    fs::path wrapper = dir / "cc-record";
    EXPECT_TRUE(write_file(wrapper, "#!/bin/sh\nfor arg; do case $arg in *tiles.c)\n"
                                    "  echo \"TILE=${TILE-unset}\" >> \"$(dirname \"$0\")/compile-env.log\";; esac; done\n"
                                    "exec " + find_executable("gcc").string() + " \"$@\"\n"));
    fs::permissions(wrapper, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
    return wrapper;
}

// text with every run of whitespace as one space (CMake wraps the messages it prints).
std::string squeezed(const std::string& text) {
    std::string out;
    for (char c : text) {
        bool space = std::isspace(static_cast<unsigned char>(c));
        if (!space) out += c;
        else if (!out.empty() && out.back() != ' ') out += ' ';
    }
    return out;
}

std::string last_compile_env(const fs::path& dir) {
    std::string log = read_file(dir / "compile-env.log").value_or("");
    std::size_t end = log.find_last_not_of('\n');
    if (end == std::string::npos) return "";
    std::size_t start = log.rfind('\n', end);
    return log.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}

class MakeRecipe : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = promoted_tiles();
        compiler_ = write_recording_compiler(dir_);
        ASSERT_TRUE(find_executable("routetune").empty()) << "a routetune on PATH would hide the not-installed case";
    }
    CliResult make(const std::vector<std::string>& variables, bool with_routetune = true) {
        std::vector<std::string> argv{"make", "-f", (fs::path(ROUTETUNE_SOURCE_DIR) / "examples" / "make_flags" / "Makefile").string(),
                                      "CC=" + compiler_.string(), "CFLAGS=-frecord-gcc-switches", "KERNEL=tiles.c"};
        argv.insert(argv.end(), variables.begin(), variables.end());
        return run_program(argv, dir_, path_env(with_routetune));
    }
    fs::path dir_, compiler_;
};

TEST_F(MakeRecipe, BuildsTheLockedRouteWithItsEnvironment) {
    CliResult built = make({});
    ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
    std::string switches = recorded_switches(dir_ / "kernel");
    EXPECT_TRUE(has_switch(switches, "-O3")) << switches;
    EXPECT_FALSE(has_switch(switches, "-O2")) << switches;
    EXPECT_EQ(last_compile_env(dir_), "TILE=16");
    CliResult again = make({});
    EXPECT_EQ(again.exit_code, 0);
    EXPECT_NE(again.out.find("is up to date"), std::string::npos) << "an unchanged route rebuilds nothing: " << again.out;
}

TEST_F(MakeRecipe, StopsWhenRoutetuneIsNotInstalled) {
    CliResult built = make({}, false);
    EXPECT_NE(built.exit_code, 0) << built.out;
    EXPECT_NE(built.err.find("routetune is not installed"), std::string::npos) << built.err;
    EXPECT_FALSE(fs::exists(dir_ / "kernel"));
}

TEST_F(MakeRecipe, StopsWhenTheLockIsMissingAndFallsBackOnlyWhenAsked) {
    fs::remove(dir_ / kLock);
    CliResult built = make({});
    EXPECT_NE(built.exit_code, 0) << built.out;
    EXPECT_NE(built.err.find("no lock file here"), std::string::npos) << built.err;
    EXPECT_NE(built.err.find("ROUTETUNE_FALLBACK=1"), std::string::npos) << built.err;
    EXPECT_FALSE(fs::exists(dir_ / "kernel"));
    CliResult fell_back = make({"ROUTETUNE_FALLBACK=1", "ROUTETUNE_SPEC=spec.toml"});
    ASSERT_EQ(fell_back.exit_code, 0) << fell_back.out << fell_back.err;
    EXPECT_TRUE(has_switch(recorded_switches(dir_ / "kernel"), "-O2"));
    EXPECT_EQ(last_compile_env(dir_), "TILE=unset");
    EXPECT_EQ(last_audit_entry(dir_ / (kLock + ".audit.jsonl"))["action"], "fallback");
}

TEST_F(MakeRecipe, StopsWhenTheLockIsStaleAndRebuildsTheDefaultRouteOnFallback) {
    ASSERT_EQ(make({}).exit_code, 0);
    ASSERT_TRUE(write_file(dir_ / "tiles.h", *read_file(dir_ / "tiles.h") + "/* edited */\n"));
    CliResult built = make({});
    EXPECT_NE(built.exit_code, 0) << built.out;
    EXPECT_NE(built.err.find("input.tiles.h"), std::string::npos) << built.err;
    CliResult fell_back = make({"ROUTETUNE_FALLBACK=1"});
    ASSERT_EQ(fell_back.exit_code, 0) << fell_back.out << fell_back.err;
    std::string switches = recorded_switches(dir_ / "kernel");
    EXPECT_TRUE(has_switch(switches, "-O2")) << "the route changed, so the kernel was rebuilt: " << switches;
    EXPECT_EQ(last_compile_env(dir_), "TILE=unset");
}

// `routetune retire` is the shutdown path: the lock stays with its evidence and every recipe
// builds the default route, with no fallback asked for, each use logged.
CliResult retire(const fs::path& dir) {
    return run_cli({"retire", kLock, "--reason", "the kernel was rewritten"}, dir);
}

TEST_F(MakeRecipe, ARetiredLockBuildsTheDefaultRouteWithoutFallback) {
    ASSERT_EQ(make({}).exit_code, 0);
    CliResult retired = retire(dir_);
    ASSERT_EQ(retired.exit_code, 0) << retired.out << retired.err;
    CliResult built = make({});
    ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
    std::string switches = recorded_switches(dir_ / "kernel");
    EXPECT_TRUE(has_switch(switches, "-O2")) << "the retired route's kernel was rebuilt at the default: " << switches;
    EXPECT_FALSE(has_switch(switches, "-O3")) << switches;
    EXPECT_EQ(last_compile_env(dir_), "TILE=unset");
    nlohmann::json entry = last_audit_entry(dir_ / (kLock + ".audit.jsonl"));
    EXPECT_EQ(entry["action"], "flags") << entry.dump();
    EXPECT_NE(entry["result"].get<std::string>().find("retired"), std::string::npos) << entry.dump();
    CliResult verified = run_cli({"verify", kLock}, dir_);
    EXPECT_EQ(verified.exit_code, 0) << verified.err;
    EXPECT_EQ(verified.out.rfind("retired: ", 0), 0u) << "verify must not call a retired lock valid: " << verified.out;
}

// The routetune package installed once for this program's CMake tests.
const fs::path& installed_prefix() {
    static const fs::path prefix = [] {
        fs::path folder = make_scratch_folder(fs::temp_directory_path(), "routetune-prefix-");
        CliResult installed = run_program({"cmake", "--install", fs::path(ROUTETUNE_BINARY).parent_path().string(),
                                           "--prefix", folder.string()},
                                          folder, {});
        EXPECT_EQ(installed.exit_code, 0) << installed.out << installed.err;
        return folder;
    }();
    return prefix;
}

class CmakeRecipe : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = promoted_tiles();
        compiler_ = write_recording_compiler(dir_);
    }
    CliResult configure(const std::string& tree, const std::vector<std::string>& options) {
        std::vector<std::string> argv{"cmake", "-S", (fs::path(ROUTETUNE_SOURCE_DIR) / "examples" / "cmake_flags").string(),
                                      "-B", (dir_ / tree).string(), "-DCMAKE_PREFIX_PATH=" + installed_prefix().string(),
                                      "-DROUTETUNE_LOCK=" + (dir_ / kLock).string(), "-DKERNEL=" + (dir_ / "tiles.c").string(),
                                      "-DCMAKE_C_COMPILER=" + compiler_.string(), "-DCMAKE_C_FLAGS=-frecord-gcc-switches"};
        argv.insert(argv.end(), options.begin(), options.end());
        return run_program(argv, dir_, path_env(true));
    }
    CliResult build(const std::string& tree) {
        return run_program({"cmake", "--build", (dir_ / tree).string()}, dir_, path_env(true));
    }
    fs::path dir_, compiler_;
};

TEST_F(CmakeRecipe, BuildsTheLockedRouteAndRechecksTheLockOnEveryBuild) {
    CliResult configured = configure("build", {});
    ASSERT_EQ(configured.exit_code, 0) << configured.out << configured.err;
    EXPECT_NE(configured.out.find("routetune: kernel uses route '" + kTilesRoute + "' (lock): -O3"), std::string::npos)
        << configured.out;
    CliResult built = build("build");
    ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
    std::string switches = recorded_switches(dir_ / "build" / "kernel");
    EXPECT_TRUE(has_switch(switches, "-O3")) << switches;
    EXPECT_FALSE(has_switch(switches, "-O2")) << switches;
    EXPECT_EQ(last_compile_env(dir_), "TILE=16");

    std::string header = *read_file(dir_ / "tiles.h");
    ASSERT_TRUE(write_file(dir_ / "tiles.h", header + "/* edited after the configure */\n"));
    CliResult stale = build("build");
    EXPECT_NE(stale.exit_code, 0) << "a stale lock must stop the next build, not only the next configure";
    EXPECT_NE(squeezed(stale.out + stale.err).find("input.tiles.h"), std::string::npos) << stale.out << stale.err;
    ASSERT_TRUE(write_file(dir_ / "tiles.h", header));
    EXPECT_EQ(build("build").exit_code, 0);

    fs::remove(dir_ / kLock);
    CliResult retired = build("build");
    EXPECT_NE(retired.exit_code, 0) << "without FALLBACK a removed lock stops the build";
    EXPECT_NE(squeezed(retired.out + retired.err).find("no lock file here"), std::string::npos) << retired.out << retired.err;
}

TEST_F(CmakeRecipe, WithFallbackARemovedLockBuildsTheSpecsDefaultRouteNeverAConfigureError) {
    CliResult configured = configure("fallback", {"-DFALLBACK=ON"});
    ASSERT_EQ(configured.exit_code, 0) << configured.out << configured.err;
    ASSERT_EQ(build("fallback").exit_code, 0);
    EXPECT_TRUE(has_switch(recorded_switches(dir_ / "fallback" / "kernel"), "-O3"));

    fs::remove(dir_ / kLock);  // what `git rm routetune.lock.json` leaves
    CliResult built = build("fallback");
    ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
    std::string switches = recorded_switches(dir_ / "fallback" / "kernel");
    EXPECT_TRUE(has_switch(switches, "-O2")) << "the default route, rebuilt because the route changed: " << switches;
    EXPECT_EQ(last_compile_env(dir_), "TILE=unset");
    EXPECT_EQ(last_audit_entry(dir_ / (kLock + ".audit.jsonl"))["evidence"]["refusal"], "missing");

    CliResult fresh = configure("fresh", {"-DFALLBACK=ON", "-DROUTETUNE_SPEC=" + (dir_ / "spec.toml").string()});
    ASSERT_EQ(fresh.exit_code, 0) << fresh.out << fresh.err;
    EXPECT_NE(fresh.out.find("(fallback): -O2"), std::string::npos) << fresh.out;
    CliResult no_spec = configure("no-spec", {"-DFALLBACK=ON"});
    EXPECT_NE(no_spec.exit_code, 0) << "a missing lock without SPEC has no default route to give";
    EXPECT_NE(squeezed(no_spec.err).find("give --spec SPEC"), std::string::npos) << no_spec.err;
}

TEST_F(CmakeRecipe, ARetiredLockRebuildsTheDefaultRouteOnTheNextBuildWithoutFallback) {
    CliResult configured = configure("build", {});
    ASSERT_EQ(configured.exit_code, 0) << configured.out << configured.err;
    ASSERT_EQ(build("build").exit_code, 0);
    EXPECT_TRUE(has_switch(recorded_switches(dir_ / "build" / "kernel"), "-O3"));
    CliResult retired = retire(dir_);
    ASSERT_EQ(retired.exit_code, 0) << retired.out << retired.err;
    CliResult built = build("build");
    ASSERT_EQ(built.exit_code, 0) << built.out << built.err;
    std::string switches = recorded_switches(dir_ / "build" / "kernel");
    EXPECT_TRUE(has_switch(switches, "-O2")) << "the configured tree rebuilt at the default route: " << switches;
    EXPECT_FALSE(has_switch(switches, "-O3")) << switches;
    EXPECT_EQ(last_compile_env(dir_), "TILE=unset");
}

TEST_F(CmakeRecipe, StopsTheConfigureWhenRoutetuneIsNotInstalled) {
    // The package without its program (bin/routetune removed) and a PATH without routetune.
    fs::path package_only = make_scratch_folder(fs::temp_directory_path(), "routetune-package-only-") / "prefix";
    fs::copy(installed_prefix(), package_only, fs::copy_options::recursive);
    fs::remove(package_only / "bin" / "routetune");
    std::vector<std::string> argv{"cmake", "-S", (fs::path(ROUTETUNE_SOURCE_DIR) / "examples" / "cmake_flags").string(),
                                  "-B", (dir_ / "build").string(), "-DCMAKE_PREFIX_PATH=" + package_only.string(),
                                  "-DROUTETUNE_LOCK=" + (dir_ / kLock).string(), "-DKERNEL=" + (dir_ / "tiles.c").string()};
    CliResult configured = run_program(argv, dir_, path_env(false));
    EXPECT_NE(configured.exit_code, 0) << configured.out;
    EXPECT_NE(squeezed(configured.err).find("routetune is not on PATH"), std::string::npos) << configured.err;
    EXPECT_FALSE(fs::exists(dir_ / "build" / "kernel"));
}

}  // namespace
}  // namespace routetune::e2e
