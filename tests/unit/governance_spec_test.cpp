// The governance parts of the spec and the lock: case classes, promotion-only cases and class
// thresholds parse and are validated; a lock round-trips and refuses another schema version;
// flags print as shell words that a shell splits back into the same items.
#include <gtest/gtest.h>

#include "eval/accuracy.hpp"
#include "eval/case_judgement.hpp"
#include "govern/lock.hpp"
#include "spec/build_inputs.hpp"
#include "routetune/error.hpp"
#include "routetune/spec.hpp"
#include "util/files.hpp"
#include "util/shell_quote.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

const std::string kCommands = R"(
[build]
command = ["{compiler}", "{flags}", "k.c", "-o", "{artifact}"]
[run]
command = ["{artifact}"]
)";

Spec parse(const std::string& text) {
    return parse_spec(text, make_scratch_folder(fs::temp_directory_path(), "routetune-gspec-") / "spec.toml");
}

TEST(GovernanceSpec, CaseClassesPromotionOnlyAndClassThresholdsParse) {
    Spec spec = parse(kCommands + R"(
[accuracy]
threshold = 1e-6
[accuracy.boundary]
threshold = 1e-9
[[case]]
name = "typical"
[[case]]
name = "edge"
class = "boundary"
promotion_only = true
)");
    ASSERT_EQ(spec.cases.size(), 2u);
    EXPECT_EQ(spec.cases[0].case_class, "normal");
    EXPECT_FALSE(spec.cases[0].promotion_only);
    EXPECT_EQ(spec.cases[1].case_class, "boundary");
    EXPECT_TRUE(spec.cases[1].promotion_only);
    EXPECT_EQ(accuracy_rule_for(spec.accuracy, "boundary").threshold, 1e-9);
    EXPECT_EQ(accuracy_rule_for(spec.accuracy, "normal").threshold, 1e-6);
    EXPECT_EQ(accuracy_rule_for(spec.accuracy, "misuse").threshold, 1e-6);
}

TEST(GovernanceSpec, AnUnknownClassOrClassKeyIsAUsageErrorNamingIt) {
    try {
        parse(kCommands + "[[case]]\nname = \"a\"\nclass = \"edge\"\n");
        FAIL() << "an unknown class parsed";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("boundary"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse(kCommands + "[accuracy.boundary]\nmetric = \"l1\"\n"), UsageError);
    EXPECT_THROW(parse(kCommands + "[accuracy.boundary]\nthreshold = -1.0\n"), UsageError);
}

// A usage error's text, or "" when text parses.
std::string parse_error(const std::string& text, const fs::path& file) {
    try {
        parse_spec(text, file);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

TEST(GovernanceSpec, AComponentFailureCaseStatesItsExpectedOutcomeAndMayNameAnAbsentInput) {
    Spec spec = parse(kCommands + R"(
[[case]]
name = "typical"
[[case]]
name = "no_input"
class = "component-failure"
input = "data/absent.txt"
expect = "run_failed"
expect_exit = 3
[[case]]
name = "copes"
class = "component-failure"
expect = "ok"
)");
    ASSERT_EQ(spec.cases.size(), 3u);
    EXPECT_EQ(spec.cases[1].case_class, "component-failure");
    EXPECT_EQ(spec.cases[1].expect, "run_failed");
    EXPECT_EQ(spec.cases[1].expect_exit, 3);
    EXPECT_EQ(spec.cases[1].input.filename(), "absent.txt");
    EXPECT_FALSE(is_timed(spec.cases[1]));
    EXPECT_FALSE(compares_output(spec.cases[1]));
    EXPECT_TRUE(compares_output(spec.cases[2]));
    EXPECT_TRUE(is_timed(spec.cases[0]));
    EXPECT_EQ(case_class_names().back(), "component-failure");
}

TEST(GovernanceSpec, ExpectedOutcomesAreValidatedWithTheirLine) {
    fs::path file = make_scratch_folder(fs::temp_directory_path(), "routetune-gspec-") / "spec.toml";
    std::string missing = parse_error(kCommands + "[[case]]\nname = \"a\"\n[[case]]\nname = \"b\"\nclass = \"component-failure\"\n", file);
    EXPECT_NE(missing.find("needs expect = \"run_failed\""), std::string::npos) << missing;
    std::string normal = parse_error(kCommands + "[[case]]\nname = \"a\"\nexpect = \"run_failed\"\n", file);
    EXPECT_NE(normal.find("spec.toml:8"), std::string::npos) << normal;
    EXPECT_NE(normal.find("only a class = \"component-failure\" case"), std::string::npos) << normal;
    std::string bad = parse_error(kCommands + "[[case]]\nname = \"a\"\n[[case]]\nname = \"b\"\nclass = \"component-failure\"\n"
                                             "expect = \"run_crashed\"\n", file);
    EXPECT_NE(bad.find("run_failed"), std::string::npos) << bad;
    std::string code = parse_error(kCommands + "[[case]]\nname = \"a\"\n[[case]]\nname = \"b\"\nclass = \"component-failure\"\n"
                                              "expect = \"ok\"\nexpect_exit = 2\n", file);
    EXPECT_NE(code.find("expect_exit"), std::string::npos) << code;
    std::string only = parse_error(kCommands + "[[case]]\nname = \"b\"\nclass = \"component-failure\"\nexpect = \"ok\"\n", file);
    EXPECT_NE(only.find("every [[case]] is a component-failure case"), std::string::npos) << only;
}

TEST(GovernanceSpec, CaseJudgementHoldsAComponentFailureCaseToItsExpectedOutcome) {
    CaseSpec expects_failure{"no_input", {}, {}, {}, "component-failure"};
    expects_failure.expect = "run_failed";
    expects_failure.expect_exit = 3;
    AccuracySpec accuracy;
    CaseRun clean{Status::RunFailed};
    clean.exit_code = 3;
    EXPECT_EQ(judge_case_run(accuracy, expects_failure, clean, nullptr).status, Status::Ok);
    CaseRun other_code = clean;
    other_code.exit_code = 1;
    EXPECT_EQ(judge_case_run(accuracy, expects_failure, other_code, nullptr).status, Status::RunFailed);
    CaseRun crashed{Status::RunCrashed};
    EXPECT_EQ(judge_case_run(accuracy, expects_failure, crashed, nullptr).status, Status::RunCrashed);
    CaseVerdict succeeded = judge_case_run(accuracy, expects_failure, CaseRun{Status::Ok}, nullptr);
    EXPECT_EQ(succeeded.status, Status::Inaccurate);
    EXPECT_NE(succeeded.message.find("expected a clean failure (run_failed, exit code 3)"), std::string::npos)
        << succeeded.message;
    expects_failure.expect_exit.reset();
    EXPECT_EQ(judge_case_run(accuracy, expects_failure, other_code, nullptr).status, Status::Ok);
    CaseSpec normal{"typical"};
    CaseRun output{Status::Ok};
    output.output = "1\n";
    std::string same = "1\n", other = "2\n";
    EXPECT_EQ(judge_case_run(accuracy, normal, output, &same).status, Status::Ok);
    EXPECT_EQ(judge_case_run(accuracy, normal, output, &other).status, Status::Inaccurate);
    EXPECT_EQ(judge_case_run(accuracy, normal, clean, &same).status, Status::RunFailed);
}

// The one per-case gate resolves the case's class rule itself: a boundary case is held to its
// stricter [accuracy.boundary] threshold, a normal case to the global one, and the verdict
// names the threshold it used (what a regression run reports).
TEST(GovernanceSpec, CaseJudgementHoldsEachCaseToItsClassThreshold) {
    AccuracySpec accuracy;
    accuracy.threshold = 1e-2;
    accuracy.classes["boundary"].threshold = 1e-9;
    CaseSpec normal{"typical"};
    CaseSpec edge{"edge", {}, {}, {}, "boundary"};
    CaseRun run{Status::Ok};
    run.output = "1.001\n";
    std::string reference = "1\n";
    CaseVerdict loose = judge_case_run(accuracy, normal, run, &reference);
    EXPECT_EQ(loose.status, Status::Ok) << loose.message;
    EXPECT_EQ(loose.threshold, 1e-2);
    CaseVerdict strict = judge_case_run(accuracy, edge, run, &reference);
    EXPECT_EQ(strict.status, Status::Inaccurate) << "a loss of 1e-3 is over the boundary class's 1e-9";
    EXPECT_EQ(strict.threshold, 1e-9);
}

TEST(GovernanceSpec, BuildInputsAreGlobsInsideTheSpecsFolder) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-inputs-");
    fs::create_directories(dir / "src" / "detail");
    fs::create_directories(dir / "src" / ".hidden");
    for (const char* name : {"src/a.c", "src/b.c", "src/a.h", "src/detail/c.h", "src/.hidden/x.c", "k.c"})
        ASSERT_TRUE(write_file(dir / name, name));
    Spec spec = parse_spec(R"(
[build]
command = ["{compiler}", "{flags}", "k.c", "-o", "{artifact}"]
inputs = ["src/*.c", "src/detail", "k.c"]
[run]
command = ["{artifact}"]
)", dir / "spec.toml");
    std::vector<std::string> keys;
    for (const auto& [key, file] : build_input_files(spec, UnmatchedInputs::Refused)) keys.push_back(key);
    EXPECT_EQ(keys, (std::vector<std::string>{"k.c", "src/a.c", "src/b.c", "src/detail/c.h"}));
    EXPECT_EQ(build_input_hashes(spec, UnmatchedInputs::Refused).size(), 4u);

    auto inputs_error = [&](const std::string& list) {
        return parse_error("[build]\ncommand = [\"{compiler}\"]\ninputs = " + list + "\n[run]\ncommand = [\"{artifact}\"]\n",
                           dir / "spec.toml");
    };
    spec.build.inputs = {"src/*.cc"};
    EXPECT_TRUE(build_input_files(spec, UnmatchedInputs::Allowed).empty()) << "checking a lock: every file removed";
    try {
        build_input_files(spec, UnmatchedInputs::Refused);
        ADD_FAILURE() << "a lock was given a pattern that names nothing";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("'src/*.cc' matches no file"), std::string::npos) << e.what();
    }
    std::string above = inputs_error("[\"../*\"]");
    EXPECT_NE(above.find("spec.toml:3"), std::string::npos) << above;
    EXPECT_NE(above.find("leaves the spec's folder"), std::string::npos) << above;
    EXPECT_NE(inputs_error("[\"\"]").find("must not be empty"), std::string::npos);
    fs::path outside = make_scratch_folder(fs::temp_directory_path(), "routetune-outside-");
    ASSERT_TRUE(write_file(outside / "secret.c", "x"));
    fs::create_symlink(outside / "secret.c", dir / "src" / "z.c");
    std::string linked = inputs_error("[\"src/*.c\"]");
    EXPECT_NE(linked.find("src/z.c"), std::string::npos) << linked;
    EXPECT_NE(linked.find("symbolic link"), std::string::npos) << linked;
}

TEST(GovernanceSpec, AReferenceOrInputLinkedOutOfTheSpecsFolderIsRefusedNamingTheFile) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-confine-");
    fs::path outside = make_scratch_folder(fs::temp_directory_path(), "routetune-outside-");
    ASSERT_TRUE(write_file(outside / "shadow", "root:SECRET-HASH:19000:0:99999:7:::\n"));
    fs::create_directories(dir / "data");
    fs::create_symlink(outside / "shadow", dir / "data" / "ref.txt");
    std::string refused = parse_error(kCommands + "[[case]]\nname = \"a\"\nreference = \"data/ref.txt\"\n", dir / "spec.toml");
    EXPECT_NE(refused.find("spec.toml:8"), std::string::npos) << refused;
    EXPECT_NE(refused.find("'data/ref.txt' is refused"), std::string::npos) << refused;
    EXPECT_EQ(refused.find("SECRET-HASH"), std::string::npos) << refused;
    std::string above = parse_error(kCommands + "[[case]]\nname = \"a\"\ninput = \"../x.txt\"\n", dir / "spec.toml");
    EXPECT_NE(above.find("lies outside"), std::string::npos) << above;
    Spec absolute = parse_spec(kCommands + "[[case]]\nname = \"a\"\nreference = \"" + (outside / "shadow").string() + "\"\n",
                               dir / "spec.toml");
    EXPECT_EQ(absolute.cases[0].reference, outside / "shadow") << "an absolute path is the spec's explicit choice";
}

TEST(GovernanceLock, RoundTripsAndRefusesAnotherSchemaVersionNamingTheFile) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-lock-");
    Lock lock;
    lock.route = "-O=3";
    lock.flags = {"-O3", "-DNAME=a b"};
    lock.fingerprint = {{"compiler.version", "gcc 12"}};
    lock.evidence.cases.push_back({"edge", "boundary", true, "ok", 0.5, 1e-9});
    lock.thresholds = {{"boundary", 1e-9}};
    lock.inputs = {{"src/kernel.c", std::string(64, 'a')}};
    write_lock(dir / "x.lock.json", lock);
    Lock back = read_lock(dir / "x.lock.json");
    EXPECT_EQ(lock_to_text(back), lock_to_text(lock));
    EXPECT_EQ(back.evidence.cases.at(0).case_class, "boundary");
    EXPECT_EQ(back.inputs, lock.inputs);

    std::string text = *read_file(dir / "x.lock.json");
    std::string version = "\"schema_version\": " + std::to_string(kLockSchemaVersion);
    ASSERT_NE(text.find(version), std::string::npos) << text;
    text.replace(text.find(version), version.size(), "\"schema_version\": 1");
    ASSERT_TRUE(write_file(dir / "x.lock.json", text));
    try {
        read_lock(dir / "x.lock.json");
        FAIL() << "a version 1 lock (no seal, no build inputs) was read";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("x.lock.json: lock schema version 1"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(is_lock_file(dir / "x.lock.json")) << "promote may replace a lock of another version";
    ASSERT_TRUE(write_file(dir / "y.lock.json", "{\"schema_version\": " + std::to_string(kLockSchemaVersion) + "}"));
    EXPECT_THROW(read_lock(dir / "y.lock.json"), UsageError);
}

TEST(GovernanceLock, FreeTextPassesTheRedactionFilterAndTheRouteDoesNot) {
    Lock lock;
    lock.route = "-O=3";
    lock.flags = {"-O3", "-fsecret-sauce=1"};
    lock.environment = {{"TILE", "16"}};
    lock.owner = "ci";
    lock.reason = "4x, measured with GITHUB_TOKEN=ghp_0123456789abcdefghij0123 set";
    lock.last_review.reasons = {"checked via postgresql://ann:pw@db/x"};
    std::string text = lock_to_text(lock);
    EXPECT_EQ(text.find("ghp_"), std::string::npos) << text;
    EXPECT_EQ(text.find(":pw@"), std::string::npos) << text;
    EXPECT_NE(text.find("GITHUB_TOKEN=[REDACTED]"), std::string::npos) << text;
    EXPECT_NE(text.find("\"-fsecret-sauce=1\""), std::string::npos) << text;
    EXPECT_NE(text.find("\"TILE\": \"16\""), std::string::npos) << text;
}

TEST(GovernanceLock, PathsAreRelativeToTheLocksFolder) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-lock-");
    fs::path lock = dir / "app" / "routetune.lock.json";
    EXPECT_EQ(path_for_lock(dir / "app" / "spec.toml", lock), "spec.toml");
    EXPECT_EQ(path_for_lock(dir / "data" / "in.txt", lock), "../data/in.txt");
    EXPECT_EQ(path_from_lock("../data/in.txt", lock), dir / "data" / "in.txt");
}

TEST(ShellQuote, PlainItemsStayAndOthersAreQuotedSoAShellSplitsThemBack) {
    EXPECT_EQ(shell_words({"-O3", "-march=native", "--param=max-unroll-times=16"}),
              "-O3 -march=native --param=max-unroll-times=16");
    EXPECT_EQ(shell_quote("-DNAME=a b"), "'-DNAME=a b'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quote(""), "''");
    EXPECT_EQ(shell_quote("$(rm -rf /)"), "'$(rm -rf /)'");
}

}  // namespace
}  // namespace routetune
