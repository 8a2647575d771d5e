// No process outlives its command (issue 25): every command that starts builds or runs
// (build, promote, verify --rerun, review --rerun, tune) is stopped in the middle of a build
// that hangs (it reads a FIFO nobody writes, far inside its 120 s timeout) by SIGKILL, SIGINT or
// SIGTERM, and no process of the build may remain (a bounded wait for /proc to empty). SIGKILL
// leaves it to routetune's guardian (util/process_guardian); SIGINT and SIGTERM to the
// command's interrupt guard, which also stops the command with its state saved (exit 130).
// Before, the hung build outlived a killed command until its timeout, and promote, verify,
// review and build had no guard at all.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "hostile/process_census.hpp"

namespace routetune::e2e {
namespace {

// A study of the custom adapter whose route -k=b is 0.2 s faster than the default, and whose
// builds hang reading ./fifo once ./hang exists. Every build process carries LIFE_MARK=<dir>
// in its environment, which is how the test finds them.
struct LifeStudy {
    fs::path dir;
    std::string marker;
};

LifeStudy life_study() {
    LifeStudy study;
    study.dir = make_scratch_folder(fs::temp_directory_path(), "routetune-life-");
    study.marker = "LIFE_MARK=" + study.dir.string();
    write_file(study.dir / "spec.toml",
               "name = \"life\"\n[compiler]\nadapter = \"custom\"\n[build]\ncommand = [\"sh\", \"build.sh\", "
               "\"{artifact}\"]\ntimeout_s = 120\nenv = { LIFE_MARK = \"" + study.dir.string() +
                   "\" }\n[run]\ncommand = [\"sh\", \"{artifact}\"]\ntimeout_s = 60\n[timing]\nsource = \"process\"\n"
                   "warmup = 0\nrepeats = 3\nconfirm_rounds = 3\nmin_gain = 0.02\n[accuracy]\nformat = \"text\"\n"
                   "metric = \"exact\"\n[[knob]]\nname = \"-k\"\nvalues = [\"a\", \"b\"]\ndefault = \"a\"\nenv = \"K\"\n"
                   "[search]\nroutes = \"-k=[a|b]\"\n");
    write_file(study.dir / "build.sh",
               "if [ -e \"" + study.dir.string() + "/hang\" ]; then cat \"" + study.dir.string() +
                   "/fifo\" > /dev/null; fi\n"
                   "if [ \"$K\" = b ]; then printf 'echo 1\\n' > \"$1\"; else printf 'sleep 0.2; echo 1\\n' > \"$1\"; fi\n");
    mkfifo((study.dir / "fifo").c_str(), 0600);
    return study;
}

// Tunes the study (and promotes its winner when lock), then makes every build hang.
void prepare(const LifeStudy& study, bool lock) {
    CliResult tuned = run_cli({"tune", "spec.toml"}, study.dir);
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    if (lock) {
        CliResult promoted = run_cli({"promote", ".routetune/life.sqlite", "--lock", "life.lock.json"}, study.dir);
        ASSERT_EQ(promoted.exit_code, 0) << promoted.out << promoted.err;
    }
    write_file(study.dir / "hang", "");
}

// Starts args, waits for the hung build, sends sig; expects the exit code (128 + 9 for SIGKILL)
// and no build process left.
void stop_mid_build(const LifeStudy& study, const std::vector<std::string>& args, int sig, int expected_exit) {
    BackgroundCli command(args, study.dir);
    ASSERT_TRUE(appears(study.marker, "environ")) << "the build never started";
    command.signal(sig);
    EXPECT_EQ(command.wait(), expected_exit) << read_file(study.dir / "background.log").value_or("");
    std::size_t left = survivors(study.marker, "environ");
    kill_all_with(study.marker, "environ");
    EXPECT_EQ(left, 0u) << "processes of the hung build outlived " << args[0];
}

std::string audit_tail(const fs::path& file) {
    std::string text = read_file(file).value_or("");
    std::size_t end = text.find_last_not_of('\n');
    if (end == std::string::npos) return "";
    std::size_t start = text.rfind('\n', end);
    return text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1));
}

TEST(Lifetime, BuildKilledLeavesNothing) {
    LifeStudy study = life_study();
    write_file(study.dir / "hang", "");
    stop_mid_build(study, {"build", "spec.toml", "--route", "-k=b"}, SIGKILL, 128 + SIGKILL);
}

TEST(Lifetime, BuildInterruptedStopsAndLeavesNothing) {
    LifeStudy study = life_study();
    write_file(study.dir / "hang", "");
    stop_mid_build(study, {"build", "spec.toml", "--route", "-k=b"}, SIGINT, 130);
}

TEST(Lifetime, TuneKilledLeavesNothing) {
    LifeStudy study = life_study();
    write_file(study.dir / "hang", "");
    stop_mid_build(study, {"tune", "spec.toml"}, SIGKILL, 128 + SIGKILL);
}

TEST(Lifetime, PromoteKilledLeavesNothing) {
    LifeStudy study = life_study();
    prepare(study, false);
    stop_mid_build(study, {"promote", ".routetune/life.sqlite", "--lock", "life.lock.json"}, SIGKILL, 128 + SIGKILL);
}

TEST(Lifetime, PromoteInterruptedStopsRecordsItAndLeavesNothing) {
    LifeStudy study = life_study();
    prepare(study, false);
    stop_mid_build(study, {"promote", ".routetune/life.sqlite", "--lock", "life.lock.json"}, SIGINT, 130);
    EXPECT_FALSE(fs::exists(study.dir / "life.lock.json"));
    std::string last = audit_tail(study.dir / "life.lock.json.audit.jsonl");
    EXPECT_NE(last.find("\"promote-interrupted\""), std::string::npos) << last;
}

TEST(Lifetime, PromoteTerminatedStopsAndLeavesNothing) {
    LifeStudy study = life_study();
    prepare(study, false);
    stop_mid_build(study, {"promote", ".routetune/life.sqlite", "--lock", "life.lock.json"}, SIGTERM, 130);
}

TEST(Lifetime, VerifyRerunKilledLeavesNothing) {
    LifeStudy study = life_study();
    prepare(study, true);
    stop_mid_build(study, {"verify", "life.lock.json", "--rerun"}, SIGKILL, 128 + SIGKILL);
}

TEST(Lifetime, VerifyRerunInterruptedStopsAndLeavesNothing) {
    LifeStudy study = life_study();
    prepare(study, true);
    stop_mid_build(study, {"verify", "life.lock.json", "--rerun"}, SIGINT, 130);
}

TEST(Lifetime, ReviewRerunKilledLeavesNothing) {
    LifeStudy study = life_study();
    prepare(study, true);
    stop_mid_build(study, {"review", "life.lock.json", "--rerun"}, SIGKILL, 128 + SIGKILL);
}

TEST(Lifetime, ReviewRerunInterruptedKeepsTheLockAndLeavesNothing) {
    LifeStudy study = life_study();
    prepare(study, true);
    std::string before = read_file(study.dir / "life.lock.json").value_or("");
    stop_mid_build(study, {"review", "life.lock.json", "--rerun"}, SIGTERM, 130);
    EXPECT_EQ(read_file(study.dir / "life.lock.json").value_or(""), before) << "an interrupted review changed the lock";
}

}  // namespace
}  // namespace routetune::e2e
