// The governed workflow end to end with the real GCC on examples/governance (through a wrapper
// script, so the test can change the compiler): tune, a fast-math route refused on its
// promotion-only boundary case, the safe winner promoted, verify, flags, review, a changed
// compiler making the lock stale, the logged fallback, the audit chain, gc and bad input.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "e2e/governance_harness.hpp"
#include "govern/lock_seal.hpp"
#include "util/files.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

// A review that moved the lock's review date into the past: the lock re-sealed through the
// library, anchored at a "review" entry, as `routetune review` would have left it (a hand edit of
// the date is tampering: lock_trust_test).
void review_in_the_past(const fs::path& lock_file) {
    Lock lock = read_lock(lock_file);
    lock.review_by = "2000-01-01";
    AuditEntry entry = make_audit_entry("review", lock_file.string(), {"routetune", "review"});
    entry.evidence = {{"lock_body_sha256", lock_body_sha256(lock)}};
    seal_lock(lock, append_audit_entry(default_audit_path(lock_file), entry), lock_file, nullptr);
    write_lock(lock_file, lock);
}

// Configures examples/cmake_flags against the installed package with the lock in dir.
CliResult cmake_helper(const fs::path& dir, bool fallback) {
    ProcessSpec spec;
    spec.argv = {"bash", (fs::path(ROUTETUNE_SOURCE_DIR) / "scripts" / "cmake-flags-example.sh").string(),
                 fs::path(ROUTETUNE_BINARY).parent_path().string(), (dir / "routetune.lock.json").string(),
                 (dir / "kernel.c").string()};
    if (fallback) spec.argv.push_back("fallback");
    spec.timeout_s = 300;
    ProcessResult result = run_process(spec);
    return CliResult{result.outcome == ProcessOutcome::Exited ? result.exit_code : -1, result.out, result.err};
}

TEST(GovernanceWorkflow, RefusesFastMathPromotesTheSafeRouteVerifiesFallsBackAndKeepsTheLockedArtifact) {
    fs::path dir = scratch_example(true);
    CliResult tuned = run_cli({"tune", "spec.toml", "--keep-artifacts", "--json"}, dir);
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    json summary = json::parse(tuned.out);
    ASSERT_EQ(summary.at("winner").at("route"), "-O=3") << tuned.out;
    for (const auto& e : summary.at("evaluations")) {
        if (e.at("route") == "-ffast-math=on") EXPECT_EQ(e.at("status"), "ok") << "fast-math passes the tuning case";
        EXPECT_EQ(e.dump().find("nan_inf"), std::string::npos) << "a promotion-only case ran while tuning";
    }
    std::string store = ".routetune/governance.sqlite";
    json by_class = summary.at("classes");
    ASSERT_EQ(by_class.size(), 4u) << by_class.dump();
    EXPECT_EQ(by_class[0].at("class"), "normal");
    EXPECT_EQ(by_class[0].at("passed"), summary.at("evaluations").size());
    EXPECT_EQ(by_class[1].at("promotion_only"), json::array({"nan_inf"}));
    EXPECT_EQ(by_class[2].at("class"), "misuse");
    EXPECT_EQ(by_class[3].at("class"), "component-failure");
    EXPECT_EQ(by_class[3].at("cases"), json::array({"no_data"}));
    std::size_t failed_builds = 0;
    for (const auto& e : summary.at("evaluations")) failed_builds += e.at("status") != "ok";
    EXPECT_EQ(by_class[3].at("passed"), summary.at("evaluations").size() - failed_builds)
        << "every route fails cleanly without its data file";
    EXPECT_EQ(audit_entries(dir / (store + ".audit.jsonl")).back().at("action"), "tune-finished");

    CliResult refused = run_cli({"promote", store, "--route", "-ffast-math=on", "--lock", "fast.lock.json"}, dir);
    EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
    EXPECT_NE(refused.out.find("case 'nan_inf' (boundary, promotion-only): inaccurate"), std::string::npos) << refused.out;
    EXPECT_EQ(refused.out.find("case 'typical'"), std::string::npos) << refused.out;
    EXPECT_FALSE(fs::exists(dir / "fast.lock.json"));
    EXPECT_EQ(audit_entries(dir / "fast.lock.json.audit.jsonl").back().at("action"), "promote-refused");

    CliResult promoted = run_cli({"promote", store, "--lock", "routetune.lock.json", "--owner", "ci", "--reason",
                                  "4x calibration"}, dir);
    ASSERT_EQ(promoted.exit_code, 0) << promoted.out << promoted.err;
    json lock = json::parse(*read_file(dir / "routetune.lock.json"));
    EXPECT_EQ(lock.at("route"), "-O=3");
    EXPECT_EQ(lock.at("flags"), json::array({"-O3"}));
    EXPECT_EQ(lock.at("default_flags"), json::array({"-O2"}));
    EXPECT_GE(lock.at("evidence").at("speedup_ci_low").get<double>(), 1.05);
    std::map<std::string, std::string> classes;
    for (const auto& c : lock.at("evidence").at("cases")) {
        classes[c.at("name")] = c.at("case_class");
        EXPECT_EQ(c.at("status"), "ok") << c.dump();
    }
    EXPECT_EQ(classes, (std::map<std::string, std::string>{{"typical", "normal"}, {"nan_inf", "boundary"}, {"short", "misuse"},
                                                           {"no_data", "component-failure"}}));
    EXPECT_EQ(lock.at("thresholds").at("boundary"), 1e-9);

    CliResult verified = run_cli({"verify", "routetune.lock.json", "--json"}, dir);
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    EXPECT_EQ(json::parse(verified.out).at("verdict"), "valid");
    CliResult flags = run_cli({"flags", "routetune.lock.json"}, dir);
    EXPECT_EQ(flags.exit_code, 0) << flags.err;
    EXPECT_NE(flags.out.find("ROUTETUNE_FLAGS=-O3\n"), std::string::npos) << flags.out;
    CliResult configured = cmake_helper(dir, false);
    EXPECT_EQ(configured.exit_code, 0) << configured.out << configured.err;
    EXPECT_NE(configured.out.find("routetune: kernel uses route '-O=3' (lock): -O3"), std::string::npos) << configured.out;

    review_in_the_past(dir / "routetune.lock.json");
    CliResult due = run_cli({"verify", "routetune.lock.json", "--json"}, dir);
    EXPECT_EQ(due.exit_code, 0);
    EXPECT_EQ(json::parse(due.out).at("verdict"), "review-due");
    EXPECT_NE(due.err.find("warning"), std::string::npos);
    CliResult reviewed = run_cli({"review", "routetune.lock.json", "--json"}, dir);
    ASSERT_EQ(reviewed.exit_code, 0) << reviewed.err;
    EXPECT_EQ(json::parse(reviewed.out).at("recommendation"), "keep") << reviewed.out;
    EXPECT_GT(json::parse(*read_file(dir / "routetune.lock.json")).at("review_by").get<std::string>(), "2026-01-01");

    write_wrapper(dir, 2);
    CliResult stale = run_cli({"verify", "routetune.lock.json", "--json"}, dir);
    EXPECT_EQ(stale.exit_code, 3) << stale.out << stale.err;
    std::set<std::string> fields;
    json stale_json = json::parse(stale.out);
    for (const auto& d : stale_json.at("differences")) fields.insert(d.at("field").get<std::string>());
    EXPECT_EQ(fields, (std::set<std::string>{"compiler.sha256", "compiler.version"})) << stale.out;
    EXPECT_EQ(run_cli({"flags", "routetune.lock.json"}, dir).exit_code, 3);
    CliResult fallback = run_cli({"flags", "routetune.lock.json", "--fallback"}, dir);
    EXPECT_EQ(fallback.exit_code, 0) << fallback.err;
    EXPECT_NE(fallback.out.find("ROUTETUNE_FLAGS=-O2\n"), std::string::npos) << fallback.out;
    EXPECT_NE(fallback.err.find("warning"), std::string::npos);
    CliResult refused_configure = cmake_helper(dir, false);
    EXPECT_NE(refused_configure.exit_code, 0);
    EXPECT_NE(refused_configure.out.find("compiler.sha256"), std::string::npos) << refused_configure.out;
    CliResult fell_back = cmake_helper(dir, true);
    EXPECT_EQ(fell_back.exit_code, 0) << fell_back.out << fell_back.err;
    EXPECT_NE(fell_back.out.find("(fallback): -O2"), std::string::npos) << fell_back.out;
    json last = audit_entries(dir / "routetune.lock.json.audit.jsonl").back();
    EXPECT_EQ(last.at("action"), "fallback");
    EXPECT_EQ(last.at("evidence").at("differences").size(), 2u) << last.dump();

    CliResult chain = run_cli({"audit", "--audit", "routetune.lock.json.audit.jsonl", "--verify"}, dir);
    EXPECT_EQ(chain.exit_code, 0) << chain.out << chain.err;

    auto work_folders = [&] {
        std::size_t count = 0;
        for (const auto& entry : fs::directory_iterator(dir / ".routetune" / "governance.d" / "work")) count += entry.is_directory();
        return count;
    };
    const std::size_t evaluated = summary.at("evaluations").size();  // each kept its folder (--keep-artifacts)
    EXPECT_EQ(work_folders(), evaluated);
    CliResult database = run_cli({"gc", "postgresql://ann:s3cret@127.0.0.1:1/db"}, dir);
    EXPECT_EQ(database.exit_code, 2) << database.err;
    EXPECT_NE(database.err.find("gc reads SQLite study stores only"), std::string::npos) << database.err;
    EXPECT_EQ(database.err.find("s3cret"), std::string::npos) << database.err;
    CliResult gc = run_cli({"gc", store, "--keep", "default", "--logs"}, dir);
    ASSERT_EQ(gc.exit_code, 0) << gc.err;
    EXPECT_NE(gc.out.find("kept -O=3 (locked)"), std::string::npos) << gc.out;
    EXPECT_NE(gc.out.find("kept (default) (default)"), std::string::npos) << gc.out;
    EXPECT_NE(gc.out.find("removed " + std::to_string(evaluated - 2) + " artifacts"), std::string::npos) << gc.out;
    EXPECT_EQ(work_folders(), 2u);
    EXPECT_EQ(audit_entries(dir / (store + ".audit.jsonl")).back().at("action"), "gc");

    CliResult unknown_route = run_cli({"promote", store, "--route", "-O=1", "--lock", "x.lock.json"}, dir);
    EXPECT_EQ(unknown_route.exit_code, 2);
    EXPECT_NE(unknown_route.err.find("never evaluated the route '-O=1'"), std::string::npos) << unknown_route.err;
    fs::remove(dir / store);
    CliResult gone = run_cli({"review", "routetune.lock.json"}, dir);
    EXPECT_EQ(gone.exit_code, 2);
    EXPECT_NE(gone.err.find("routetune.lock.json: the study store it names is gone"), std::string::npos) << gone.err;
}

TEST(GovernanceBadInput, UnknownLockSchemaAndMissingLockOptionExitTwoNamingTheFile) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-governance-");
    ASSERT_TRUE(write_file(dir / "old.lock.json", "{\"schema_version\": 99, \"route\": \"-O=3\"}\n"));
    for (const std::string command : {"verify", "flags", "review"}) {
        CliResult r = run_cli({command, "old.lock.json"}, dir);
        EXPECT_EQ(r.exit_code, 2) << command;
        EXPECT_NE(r.err.find("old.lock.json: lock schema version 99 is not one this routetune reads"), std::string::npos)
            << command << ": " << r.err;
    }
    CliResult no_lock = run_cli({"promote", "study.sqlite"}, dir);
    EXPECT_EQ(no_lock.exit_code, 2);
    EXPECT_NE(no_lock.err.find("--lock FILE is required"), std::string::npos) << no_lock.err;
    CliResult missing = run_cli({"verify", "absent.lock.json"}, dir);
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("absent.lock.json: no lock file here"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace routetune::e2e
