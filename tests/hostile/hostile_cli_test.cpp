// The hostile suite (ctest -L hostile): the categories of the probe of issue 9, each as a
// small scenario against the built routetune. Every test would have failed before the fixes:
// a second tune wrecked a running study, foreign files were renamed or replaced, a flooding
// run grew memory without bound, colliding case names shared a reference, setsid'ed build
// grandchildren and the groups of a killed writer survived, out-of-range numbers wrapped or
// overflowed, unbounded inputs were read whole, and raw library texts reached the user.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "hostile/process_census.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

// A spec of the custom adapter whose build writes a shell script chosen by the knob -k (env K):
// "a" prints 1; "b" runs what build_b writes.
fs::path hostile_study(const std::string& build_b, const std::string& extra_run = "", const std::string& cases = "") {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-hostile-");
    write_file(dir / "spec.toml", "name = \"h\"\n[compiler]\nadapter = \"custom\"\n[build]\ncommand = [\"sh\", \"build.sh\", "
                                  "\"{artifact}\"]\ntimeout_s = 3\n[run]\ncommand = [\"sh\", \"{artifact}\"]\ntimeout_s = 20\n" +
                                      extra_run + "[timing]\nsource = \"process\"\nwarmup = 0\nrepeats = 1\n[accuracy]\n"
                                      "format = \"text\"\nmetric = \"exact\"\n" + cases +
                                      "[[knob]]\nname = \"-k\"\nvalues = [\"a\", \"b\"]\ndefault = \"a\"\nenv = \"K\"\n"
                                      "[search]\nroutes = \"-k=[a|b]\"\n");
    write_file(dir / "build.sh", "if [ \"$K\" = b ]; then\n" + build_b + "\nelse printf 'echo 1\\n' > \"$1\"; fi\n");
    return dir;
}

std::vector<std::string> statuses(const CliResult& r) {
    std::vector<std::string> out;
    json summary = json::parse(r.out);
    for (const auto& e : summary.at("evaluations")) out.push_back(e.at("route").get<std::string>() + " " + e.at("status").get<std::string>());
    return out;
}

TEST(Hostile, SecondTuneLeavesARunningStudyAlone) {
    fs::path dir = hostile_study("sleep 2; printf 'echo 1\\n' > \"$1\"");
    BackgroundCli first({"tune", "spec.toml", "--json"}, dir);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    CliResult second = run_cli({"tune", "spec.toml"}, dir);
    EXPECT_EQ(second.exit_code, 1);
    EXPECT_NE(second.err.find("being written by routetune pid"), std::string::npos) << second.err;
    EXPECT_EQ(first.wait(), 0);
    CliResult report = run_cli({"report", ".routetune/h.sqlite", "--format", "json"}, dir);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_EQ(statuses(report), (std::vector<std::string>{" ok", "-k=b ok"}));
}

TEST(Hostile, TwoTunesStartedTogetherOneWinsTheStoreStaysWhole) {
    fs::path dir = hostile_study("sleep 1; printf 'echo 1\\n' > \"$1\"");
    BackgroundCli a({"tune", "spec.toml"}, dir);
    BackgroundCli b({"tune", "spec.toml"}, dir);
    int ra = a.wait(), rb = b.wait();
    EXPECT_EQ(std::min(ra, rb), 0);
    EXPECT_EQ(std::max(ra, rb), 1);
    CliResult report = run_cli({"report", ".routetune/h.sqlite", "--format", "json"}, dir);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_EQ(statuses(report).size(), 2u);
}

TEST(Hostile, ForeignFilesAreRefusedAndLeftAlone) {
    fs::path dir = hostile_study("printf 'echo 1\\n' > \"$1\"");
    write_file(dir / "important.c", "int main() {}\n");
    fs::create_symlink(dir / "important.c", dir / "link.sqlite");
    for (const std::string cache : {"important.c", "/dev/null", "link.sqlite"}) {
        CliResult r = run_cli({"tune", "spec.toml", "--cache", cache}, dir);
        EXPECT_EQ(r.exit_code, 2) << cache << ": " << r.err;
    }
    EXPECT_EQ(read_file(dir / "important.c"), "int main() {}\n");
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
    ASSERT_EQ(run_cli({"tune", "spec.toml"}, dir).exit_code, 0);
    for (const std::string out : {"/dev/full", "/nonexistent/folder/x", "link.sqlite", "important.c", "."}) {
        EXPECT_EQ(run_cli({"report", ".routetune/h.sqlite", "--output", out}, dir).exit_code, 2) << out;
        EXPECT_EQ(run_cli({"build", "spec.toml", "--route", "", "--output", out}, dir).exit_code, 2) << out;
    }
    EXPECT_EQ(read_file(dir / "important.c"), "int main() {}\n");
    EXPECT_FALSE(fs::exists("/nonexistent/folder"));
    EXPECT_EQ(run_cli({"report", ".routetune/h.sqlite", "--output", "r.md", "--format", "markdown"}, dir).exit_code, 0);
    EXPECT_EQ(run_cli({"report", ".routetune/h.sqlite", "--output", "r.md", "--format", "markdown"}, dir).exit_code, 0);
}

TEST(Hostile, ASymlinkedArtifactIsNotCopiedOut) {
    fs::path dir = hostile_study("ln -s /etc/hostname \"$1\"");
    CliResult r = run_cli({"build", "spec.toml", "--route", "-k=b", "--output", "out"}, dir);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(Hostile, AFloodingRunFailsAndMemoryStaysBounded) {
    fs::path dir = hostile_study("printf 'head -c 300000000 /dev/zero\\n' > \"$1\"", "max_output_mb = 16\n");
    CliResult r = run_cli({"tune", "spec.toml", "--json"}, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(statuses(r), (std::vector<std::string>{" ok", "-k=b run_failed"})) << r.out.substr(0, 3000) << r.err;
    EXPECT_NE(r.out.find("max_output_mb = 16"), std::string::npos);
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    EXPECT_LT(usage.ru_maxrss, 200 * 1024) << "KiB";  // the largest child so far, routetune included
}

TEST(Hostile, CollidingCaseNamesAreRefused) {
    for (const auto& pair : {std::pair{"a/b", "a_b"}, std::pair{"a b", "a?b"}}) {
        fs::path dir = hostile_study("printf 'echo 1\\n' > \"$1\"", "",
                                     std::string("[[case]]\nname = \"") + pair.first + "\"\n[[case]]\nname = \"" + pair.second + "\"\n");
        CliResult r = run_cli({"tune", "spec.toml"}, dir);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("share the file name"), std::string::npos) << r.err;
    }
}

TEST(Hostile, ASetsidGrandchildDiesWithItsBuild) {
    fs::path dir = hostile_study("setsid sleep 3333.25 > /dev/null 2>&1 < /dev/null &\nsleep 30");
    CliResult r = run_cli({"tune", "spec.toml", "--json"}, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(statuses(r), (std::vector<std::string>{" ok", "-k=b build_timeout"}));
    EXPECT_EQ(processes_with("sleep 3333.25").size(), 0u);
}

TEST(Hostile, ContinueEndsWhatAKilledWriterLeftRunning) {
    fs::path dir = hostile_study("setsid sleep 3333.5 > /dev/null 2>&1 < /dev/null &\nsleep 3333.75");
    std::string spec = read_file(dir / "spec.toml").value();
    write_file(dir / "spec.toml", spec.replace(spec.find("timeout_s = 3"), 13, "timeout_s = 600"));
    BackgroundCli writer({"tune", "spec.toml"}, dir);
    ASSERT_TRUE(appears("sleep 3333.75"));
    // The writer's guardian would end the build at once (Lifetime tests); killed first, as when
    // a whole process tree is killed, the build and its grandchild are left to --continue.
    std::vector<pid_t> guardians = processes_with("ROUTETUNE_GUARDIAN_OF=" + std::to_string(writer.pid()) + "-", "environ");
    ASSERT_EQ(guardians.size(), 1u);
    kill(guardians[0], SIGKILL);
    writer.signal(SIGKILL);
    writer.wait();
    ASSERT_EQ(processes_with("sleep 3333.75").size(), 1u);
    ASSERT_EQ(processes_with("sleep 3333.5").size(), 1u);
    CliResult pending = run_cli({"report", ".routetune/h.sqlite", "--format", "json"}, dir);
    EXPECT_NE(pending.out.find("pending"), std::string::npos) << pending.out;
    write_file(dir / "build.sh", "printf 'echo 1\\n' > \"$1\"\n");
    CliResult resumed = run_cli({"tune", "spec.toml", "--continue"}, dir);
    EXPECT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_EQ(processes_with("sleep 3333.75").size(), 0u);
    EXPECT_EQ(processes_with("sleep 3333.5").size(), 0u);
}

TEST(Hostile, NumbersOutsideTheirRangesAreRefusedWithTheRange) {
    fs::path dir = hostile_study("printf 'echo 1\\n' > \"$1\"");
    std::string spec = read_file(dir / "spec.toml").value();
    for (const std::string value : {"1e10", "1e12", "9223372036854775807"}) {
        std::string changed = spec;
        write_file(dir / "bad.toml", changed.replace(changed.find("timeout_s = 3"), 13, "timeout_s = " + value));
        CliResult r = run_cli({"tune", "bad.toml", "--dry-run"}, dir);
        EXPECT_EQ(r.exit_code, 2) << value;
        EXPECT_NE(r.err.find("at most 10000000"), std::string::npos) << r.err;
    }
    std::string changed = spec;
    write_file(dir / "bad.toml", changed.replace(changed.find("repeats = 1"), 11, "repeats = 4000000000"));
    EXPECT_NE(run_cli({"tune", "bad.toml", "--dry-run"}, dir).err.find("from 1 to 100000"), std::string::npos);
    for (const std::vector<std::string> args :
         {std::vector<std::string>{"--max-routes", "-1"}, {"--max-routes", "18446744073709551616"},
          {"--mixed-max-knobs", "-3"}, {"--seed", "-1"}, {"--time-limit", ""}, {"--jobs", "0"}}) {
        std::vector<std::string> argv{"tune", "spec.toml", "--dry-run"};
        argv.insert(argv.end(), args.begin(), args.end());
        CliResult r = run_cli(argv, dir);
        EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1] << ": " << r.err;
    }
    EXPECT_EQ(run_cli({"expand", "spec.toml", "--limit", "-1"}, dir).exit_code, 2);
}

TEST(Hostile, InputsAreBoundedAndEchoesShort) {
    fs::path dir = hostile_study("printf 'echo 1\\n' > \"$1\"");
    EXPECT_EQ(run_cli({"expand", "spec.toml", "--routes-file", "/dev/zero"}, dir, {}, 20).exit_code, 2);
    std::string values;
    for (int i = 0; i < 160000; ++i) values += (i ? "|" : "") + std::to_string(i);
    write_file(dir / "many.txt", "-k=[" + values + "]\n");
    auto start = std::chrono::steady_clock::now();
    CliResult many = run_cli({"expand", "spec.toml", "--routes-file", "many.txt", "--count"}, dir);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
    EXPECT_EQ(many.exit_code, 2);  // '0' is not a value of -k; the point is the time
    std::string token(15 << 20, 'x');
    token[100] = '\x1b';
    write_file(dir / "token.txt", "-" + token + "=1\n");
    CliResult bad = run_cli({"expand", "spec.toml", "--routes-file", "token.txt"}, dir);
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_LT(bad.err.size(), 2000u);
    EXPECT_EQ(bad.err.find('\x1b'), std::string::npos);
}

TEST(Hostile, RawLibraryTextsDoNotReachTheUser) {
    fs::path dir = hostile_study("printf 'echo 1\\n' > \"$1\"");
    ASSERT_EQ(run_cli({"tune", "spec.toml"}, dir).exit_code, 0);
    CliResult budget = run_cli({"simulate", ".routetune/h.sqlite", "--budget", "-1"}, dir);
    EXPECT_EQ(budget.exit_code, 2);
    EXPECT_EQ(budget.err.find("max_size"), std::string::npos) << budget.err;
    EXPECT_EQ(run_cli({"simulate", ".routetune/h.sqlite", "--seeds", "100000000"}, dir, {}, 20).exit_code, 2);
    CliResult to_folder = run_cli({"build", "spec.toml", "--route", "", "--output", dir.string()}, dir);
    EXPECT_EQ(to_folder.exit_code, 2);
    EXPECT_EQ(to_folder.err.find("Success"), std::string::npos) << to_folder.err;
}

TEST(Hostile, AFinishedStoreIsReportedWhereNoShmCanBeMade) {
    fs::path dir = hostile_study("printf 'echo 1\\n' > \"$1\"");
    ASSERT_EQ(run_cli({"tune", "spec.toml"}, dir).exit_code, 0);
    ASSERT_FALSE(fs::exists(dir / ".routetune/h.sqlite-wal"));
    fs::create_directory(dir / ".routetune/h.sqlite-shm");  // as on a read-only medium: -shm cannot be created
    CliResult r = run_cli({"report", ".routetune/h.sqlite", "--format", "json"}, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(statuses(r).size(), 2u);
}

}  // namespace
}  // namespace routetune::e2e
