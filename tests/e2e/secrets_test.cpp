// Nothing secret is stored, end to end with the real GCC: tests/fixtures/leaky prints a token, a
// password and a database URL when a route's build fails, and curl's -u, an Authorization header
// and mysql's -pPASS when a route's promotion-only run fails. None of them may reach the study
// store (the message column included, in the file's bytes), the table, JSON or HTML report, the
// audit logs (tune's, promote's) or a lock; gc --logs leaves none; a token in --reason is
// filtered in the lock and the log. A reference linked to a file outside the spec's folder is
// refused by name, its content never quoted.
#include <gtest/gtest.h>

#include "e2e/cli_harness.hpp"
#include "e2e/promoted_tiles.hpp"

namespace routetune::e2e {
namespace {

const std::vector<std::string> kSecrets{"ghp_0123456789abcdefghijklmnopqrstuv", "hunter2", "s3cretpw", "adminpw",
                                        "dXNlcjpzZWNyZXQ", "MyS3cretPass"};

// Every secret that text holds.
std::vector<std::string> secrets_in(const std::string& text) {
    std::vector<std::string> found;
    for (const auto& secret : kSecrets)
        if (text.find(secret) != std::string::npos) found.push_back(secret);
    return found;
}

// The bytes of every file below folder (the store and its WAL, logs, reports), one string.
std::string all_bytes_below(const fs::path& folder) {
    std::string bytes;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        if (entry.is_regular_file() && entry.path().extension() != ".c" && entry.path().filename() != "artifact")
            bytes += read_file(entry.path()).value_or("");
    return bytes;
}

fs::path leaky_copy() {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-leaky-") / "leaky";
    fs::copy(fs::path(ROUTETUNE_FIXTURES) / "leaky", dir, fs::copy_options::recursive);
    return dir;
}

TEST(Secrets, NeitherStoreNorReportsNorAuditLogsHoldTheSecretsABuildOrARunPrinted) {
    fs::path dir = leaky_copy();
    CliResult tuned = run_cli({"tune", "spec.toml", "--json"}, dir);
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    bool build_failed = false;
    nlohmann::json summary = json_of(tuned.out);
    for (const auto& e : summary["evaluations"]) {
        if (e["route"] != "-ffast-math=on") continue;
        build_failed = e["status"] == "build_failed";
        EXPECT_NE(e["message"].get<std::string>().find("GITHUB_TOKEN=[REDACTED]"), std::string::npos) << e.dump();
    }
    EXPECT_TRUE(build_failed) << tuned.out;
    EXPECT_EQ(secrets_in(tuned.out), std::vector<std::string>{}) << tuned.out;
    std::string store = ".routetune/leaky.sqlite";
    for (const std::string format : {"table", "json", "markdown", "html"}) {
        CliResult report = run_cli({"report", store, "--format", format}, dir);
        EXPECT_EQ(report.exit_code, 0) << report.err;
        EXPECT_EQ(secrets_in(report.out), std::vector<std::string>{}) << format << ": " << report.out.substr(0, 2000);
    }

    CliResult refused = run_cli({"promote", store, "--route", "-finline=off", "--lock", "inline.lock.json", "--reason",
                                 "try it; GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuv"},
                                dir);
    EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
    std::string log = read_file(dir / "inline.lock.json.audit.jsonl").value_or("");
    EXPECT_NE(log.find("promote-refused"), std::string::npos) << log;
    EXPECT_NE(log.find("-u admin:[REDACTED]"), std::string::npos) << log;
    EXPECT_EQ(secrets_in(log), std::vector<std::string>{}) << log;
    CliResult chain = run_cli({"audit", "--audit", "inline.lock.json.audit.jsonl", "--verify"}, dir);
    EXPECT_EQ(chain.exit_code, 0) << chain.out << chain.err;

    CliResult gc = run_cli({"gc", store, "--logs"}, dir);
    EXPECT_EQ(gc.exit_code, 0) << gc.err;
    EXPECT_EQ(secrets_in(all_bytes_below(dir)), std::vector<std::string>{});
}

TEST(Secrets, ATokenInTheReasonIsFilteredInTheLockAndTheAuditLog) {
    fs::path dir = promoted_tiles();
    CliResult promoted = run_cli({"promote", ".routetune/tiles.sqlite", "--route", kTilesRoute, "--lock", "second.lock.json",
                                  "--owner", "ci", "--reason",
                                  "faster; deployed by curl -u admin:adminpw with GITHUB_TOKEN=ghp_0123456789abcdefghijklmnopqrstuv"},
                                 dir);
    ASSERT_EQ(promoted.exit_code, 0) << promoted.out << promoted.err;
    std::string lock = *read_file(dir / "second.lock.json");
    EXPECT_NE(lock.find("GITHUB_TOKEN=[REDACTED]"), std::string::npos) << lock;
    EXPECT_EQ(secrets_in(lock), std::vector<std::string>{}) << lock;
    std::string log = *read_file(dir / "second.lock.json.audit.jsonl");
    EXPECT_EQ(secrets_in(log), std::vector<std::string>{}) << log;
    EXPECT_EQ(run_cli({"verify", "second.lock.json"}, dir).exit_code, 0);
}

TEST(Secrets, AReferenceLinkedOutOfTheSpecsFolderIsRefusedByNameAndNeverQuoted) {
    fs::path dir = leaky_copy();
    fs::path outside = make_scratch_folder(fs::temp_directory_path(), "routetune-outside-");
    ASSERT_TRUE(write_file(outside / "shadow", "root:$6$SHADOWHASH:19000:0:99999:7:::\n"));
    fs::create_symlink(outside / "shadow", dir / "data" / "typical.ref");
    std::string spec = *read_file(dir / "spec.toml");
    spec.replace(spec.find("input = \"data/typical.txt\""), 26, "input = \"data/typical.txt\"\nreference = \"data/typical.ref\"");
    ASSERT_TRUE(write_file(dir / "spec.toml", spec));
    for (const std::string command : {"tune", "expand"}) {
        CliResult refused = run_cli({command, "spec.toml"}, dir);
        EXPECT_EQ(refused.exit_code, 2) << command << ": " << refused.out << refused.err;
        EXPECT_NE(refused.err.find("'data/typical.ref' is refused"), std::string::npos) << refused.err;
        EXPECT_NE(refused.err.find("symbolic link"), std::string::npos) << refused.err;
        EXPECT_EQ(refused.err.find("SHADOWHASH"), std::string::npos) << refused.err;
        EXPECT_EQ(refused.out.find("SHADOWHASH"), std::string::npos) << refused.out;
    }
    EXPECT_FALSE(fs::exists(dir / ".routetune" / "leaky.sqlite"));
    if (fs::exists("/etc/shadow")) {
        fs::remove(dir / "data" / "typical.ref");
        fs::create_symlink("/etc/shadow", dir / "data" / "typical.ref");
        CliResult shadow = run_cli({"tune", "spec.toml"}, dir);
        EXPECT_EQ(shadow.exit_code, 2);
        EXPECT_NE(shadow.err.find("(to /etc/shadow)"), std::string::npos) << shadow.err;
    }
}

}  // namespace
}  // namespace routetune::e2e
