// Issue 24, as a hostile user and a release engineer would try it, with the real GCC on
// examples/governance: locks edited by hand (flags, evidence, owner, review date, a compiler
// path pointing at a script) are tampered (exit 4) in verify, flags and review, and their flags
// are never printed; an audit log cut back, emptied, deleted or rewritten with recomputed hashes
// is found through the lock's anchor; the actor is the account, not $USER; promote writes only a
// new file or a lock and leaves no lock when it fails; audit logs behind links, torn lines,
// devices and FIFOs are refused or reported; every flags is logged.
#include <gtest/gtest.h>

#include <pwd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "e2e/governance_harness.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

std::string account_name() { return getpwuid(getuid())->pw_name; }

// examples/governance tuned and its winner promoted once (with USER=mallory and no --owner);
// each test works on a copy.
class LockTrust : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        promoted_ = new fs::path(scratch_example(false));
        CliResult tuned = run_cli({"tune", "spec.toml", "--json"}, *promoted_);
        ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
        CliResult promoted = run_cli({"promote", kStore, "--lock", kLock}, *promoted_, {{"USER", "mallory"}});
        ASSERT_EQ(promoted.exit_code, 0) << promoted.out << promoted.err;
    }
    static void TearDownTestSuite() { delete promoted_; }
    static fs::path fresh() { return copy_of(*promoted_); }
    static fs::path* promoted_;
};
fs::path* LockTrust::promoted_ = nullptr;

TEST_F(LockTrust, ForgedFlagsAreTamperedInVerifyFlagsAndReviewAndNeverPrinted) {
    fs::path dir = fresh();
    edit_lock_by_hand(dir / kLock, [](json& lock) {
        lock["flags"].push_back("-fplugin=evil.so");
        lock["default_flags"].push_back("-fplugin=evil.so");  // the fallback comes from the spec, not the lock
    });
    std::string forged = *read_file(dir / kLock);
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"verify", kLock}, {"verify", kLock, "--rerun"}}) {
        CliResult verified = run_cli(args, dir);
        EXPECT_EQ(verified.exit_code, 4) << verified.out << verified.err;
        EXPECT_NE(verified.out.find("tampered"), std::string::npos) << verified.out;
        EXPECT_NE(verified.out.find("lock_sha256"), std::string::npos) << verified.out;
    }
    CliResult flags = run_cli({"flags", kLock}, dir);
    EXPECT_EQ(flags.exit_code, 4) << flags.err;
    EXPECT_EQ(flags.out, "");
    EXPECT_EQ(flags.err.find("evil"), std::string::npos) << flags.err;
    CliResult fallback = run_cli({"flags", kLock, "--fallback"}, dir);
    EXPECT_EQ(fallback.exit_code, 0) << fallback.err;
    EXPECT_EQ(shell_flags(fallback.out), "-O2");
    json last = audit_entries(dir / kLog).back();
    EXPECT_EQ(last.at("action"), "tampered");
    EXPECT_EQ(last.at("evidence").at("tampering").at(0).at("field"), "lock_sha256");
    CliResult reviewed = run_cli({"review", kLock}, dir);
    EXPECT_EQ(reviewed.exit_code, 4) << reviewed.out << reviewed.err;
    EXPECT_EQ(*read_file(dir / kLock), forged) << "review wrote the forged lock back";
}

TEST_F(LockTrust, AForgedLockCannotPointTheFallbackOrTheAuditLogElsewhere) {
    fs::path dir = fresh();
    fs::path outside = make_scratch_folder(fs::temp_directory_path(), "routetune-elsewhere-");
    std::string spec = *read_file(dir / "spec.toml");
    spec.replace(spec.find("base = [\"-O2\"]"), 14, "base = [\"-fplugin=evil.so\"]");
    ASSERT_TRUE(write_file(outside / "spec.toml", spec));
    ASSERT_TRUE(write_file(outside / "victim.txt", "precious\n"));
    edit_lock_by_hand(dir / kLock, [&](json& lock) {
        lock["spec"] = (outside / "spec.toml").string();
        lock["audit_anchor"]["log"] = (outside / "victim.txt").string();
    });
    CliResult fallback = run_cli({"flags", kLock, "--fallback"}, dir);
    EXPECT_EQ(fallback.exit_code, 4) << fallback.out << fallback.err;
    EXPECT_EQ(fallback.out, "");
    EXPECT_NE(fallback.err.find("names a spec outside its folder"), std::string::npos) << fallback.err;
    EXPECT_EQ(*read_file(outside / "victim.txt"), "precious\n") << "an entry was appended where the forgery pointed";
    EXPECT_EQ(audit_entries(dir / kLog).back().at("action"), "tampered") << "the entry belongs in the lock's own log";
}

TEST_F(LockTrust, EditedSpeedupOwnerAndReviewDateAreTampered) {
    std::vector<std::function<void(json&)>> edits{
        [](json& lock) { lock["evidence"]["speedup"] = 40.0; },
        [](json& lock) { lock["owner"] = "mallory"; },
        [](json& lock) { lock["review_by"] = "2099-12-31"; },
    };
    fs::path dir = fresh();
    std::string intact = *read_file(dir / kLock);
    for (std::size_t i = 0; i < edits.size(); ++i) {
        ASSERT_TRUE(write_file(dir / kLock, intact));
        edit_lock_by_hand(dir / kLock, edits[i]);
        CliResult verified = run_cli({"verify", kLock, "--json"}, dir);
        EXPECT_EQ(verified.exit_code, 4) << "edit " << i << ": " << verified.out << verified.err;
        json out = json::parse(verified.out);
        EXPECT_EQ(out.at("verdict"), "tampered");
        EXPECT_EQ(out.at("route"), nullptr) << "a tampered lock's route was reported as its own";
    }
}

TEST_F(LockTrust, ACompilerPathEditedToPointAtAScriptIsNeverRun) {
    fs::path dir = fresh();
    fs::path ran = dir / "the-script-ran";
    fs::path script = dir / "evil.sh";
    ASSERT_TRUE(write_file(script, "#!/bin/sh\ntouch '" + ran.string() + "'\nexec gcc \"$@\"\n"));
    fs::permissions(script, fs::perms::owner_all);
    std::string script_sha = *sha256_file(script);
    std::string intact = *read_file(dir / kLock);
    for (bool recompute : {false, true}) {  // a careless forger, and one who recomputes lock_sha256
        ASSERT_TRUE(write_file(dir / kLock, intact));
        edit_lock_by_hand(dir / kLock, [&](json& lock) {
            lock["fingerprint"]["compiler.path"] = script.string();
            lock["fingerprint"]["compiler.sha256"] = script_sha;
            if (!recompute) return;
            json content = lock;
            content.erase("lock_sha256");
            content.erase("signature");
            lock["lock_sha256"] = sha256_hex(content.dump());
        });
        for (const std::vector<std::string>& args :
             std::vector<std::vector<std::string>>{{"flags", kLock}, {"flags", kLock, "--fallback"}, {"verify", kLock}, {"review", kLock}}) {
            CliResult r = run_cli(args, dir);
            EXPECT_EQ(r.exit_code, args.back() == "--fallback" ? 0 : 4) << args[0] << ": " << r.out << r.err;
            EXPECT_FALSE(fs::exists(ran)) << args[0] << (recompute ? " (hash recomputed)" : "") << " ran the script";
        }
    }
}

TEST_F(LockTrust, AnAuditLogCutBackEmptiedDeletedOrRewrittenIsFoundThroughTheAnchor) {
    fs::path dir = fresh();
    ASSERT_EQ(run_cli({"verify", kLock}, dir).exit_code, 0);
    const std::string log = *read_file(dir / kLog);
    auto verify = [&] { return run_cli({"verify", kLock, "--json"}, dir); };
    auto fields = [](const CliResult& r) {
        std::set<std::string> found;
        json out = json::parse(r.out);
        for (const auto& d : out.at("tampering")) found.insert(d.at("field").get<std::string>());
        return found;
    };

    ASSERT_TRUE(write_file(dir / kLog, log.substr(0, log.find('\n') + 1)));  // head -n 1: the promotion cut
    CliResult cut = verify();
    EXPECT_EQ(cut.exit_code, 4) << cut.out << cut.err;
    EXPECT_EQ(fields(cut), std::set<std::string>{"audit_anchor"}) << cut.out;

    ASSERT_TRUE(write_file(dir / kLog, ""));
    CliResult emptied = verify();
    EXPECT_EQ(emptied.exit_code, 4) << emptied.out;
    EXPECT_NE(emptied.out.find("empty"), std::string::npos) << emptied.out;

    fs::remove(dir / kLog);
    CliResult deleted = verify();
    EXPECT_EQ(deleted.exit_code, 4) << deleted.out;
    EXPECT_NE(deleted.out.find("missing"), std::string::npos) << deleted.out;

    ASSERT_TRUE(write_file(dir / kLog, log));
    std::vector<json> entries = audit_entries(dir / kLog);
    for (auto& entry : entries)  // "bob promoted", every hash of the chain recomputed
        if (entry.at("action") == "promoted") entry["actor"] = "bob";
    std::string rewritten = rechained(entries);
    ASSERT_TRUE(write_file(dir / kLog, rewritten));
    ASSERT_EQ(run_cli({"audit", "--audit", kLog, "--verify"}, dir).exit_code, 0) << "the forged chain holds on its own";
    CliResult forged = verify();
    EXPECT_EQ(forged.exit_code, 4) << forged.out;
    EXPECT_EQ(fields(forged), std::set<std::string>{"audit_anchor"}) << forged.out;
}

TEST_F(LockTrust, ALogCutBackBehindARetiredLockIsFound) {
    fs::path dir = fresh();
    ASSERT_EQ(run_cli({"retire", kLock, "--reason", "the gain is gone"}, dir).exit_code, 0);
    std::string log = *read_file(dir / kLog);
    std::size_t second = log.find('\n', log.find('\n') + 1);
    ASSERT_TRUE(write_file(dir / kLog, log.substr(0, second + 1)));  // head -n 2
    CliResult verified = run_cli({"verify", kLock}, dir);
    EXPECT_EQ(verified.exit_code, 4) << verified.out << verified.err;
    EXPECT_NE(verified.out.find("audit_anchor"), std::string::npos) << verified.out;
}

TEST_F(LockTrust, TheActorIsTheAccountAndUserOnlyAClaim) {
    fs::path dir = fresh();
    json lock = json::parse(*read_file(dir / kLock));
    EXPECT_EQ(lock.at("owner"), account_name()) << "promote with USER=mallory and no --owner";
    json promoted = audit_entries(dir / kLog).back();
    EXPECT_EQ(promoted.at("action"), "promoted");
    EXPECT_EQ(promoted.at("actor"), account_name());
    EXPECT_EQ(promoted.at("actor_claim"), "mallory");
    ASSERT_EQ(run_cli({"verify", kLock}, dir, {{"USER", ""}}).exit_code, 0);
    json verified = audit_entries(dir / kLog).back();
    EXPECT_EQ(verified.at("actor"), account_name());
    EXPECT_FALSE(verified.contains("actor_claim"));
    CliResult empty_owner = run_cli({"promote", kStore, "--lock", "other.lock.json", "--owner", ""}, dir);
    EXPECT_EQ(empty_owner.exit_code, 2) << empty_owner.err;
    EXPECT_NE(empty_owner.err.find("--owner ''"), std::string::npos) << empty_owner.err;
    EXPECT_FALSE(fs::exists(dir / "other.lock.json"));
}

TEST_F(LockTrust, PromoteWritesOnlyANewFileOrALockAndNothingElse) {
    fs::path dir = fresh();
    fs::path victim = dir / "victim.txt";
    ASSERT_TRUE(write_file(victim, "precious\n"));
    fs::create_symlink(victim, dir / "link.lock.json");
    ASSERT_EQ(mkfifo((dir / "fifo.lock.json").c_str(), 0600), 0);
    std::vector<std::string> refused{"kernel.c", "spec.toml", "link.lock.json", "fifo.lock.json", kStore};
    if (getuid() == 0 && mknod((dir / "null.lock.json").c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0)
        refused.push_back("null.lock.json");
    for (const auto& target : refused) {
        std::string before = fs::is_regular_file(fs::symlink_status(dir / target)) ? *read_file(dir / target) : "";
        CliResult r = run_cli({"promote", kStore, "--lock", target, "--owner", "ci"}, dir);
        EXPECT_EQ(r.exit_code, 2) << target << ": " << r.out << r.err;
        EXPECT_NE(r.err.find("--lock " + target), std::string::npos) << r.err;
        if (!before.empty()) EXPECT_EQ(*read_file(dir / target), before) << target << " was overwritten";
    }
    EXPECT_EQ(*read_file(victim), "precious\n");
    EXPECT_TRUE(fs::is_symlink(dir / "link.lock.json"));
    EXPECT_TRUE(fs::is_fifo(dir / "fifo.lock.json"));
}

TEST_F(LockTrust, AFailedPromoteLeavesNoLock) {
    fs::path dir = fresh();
    ASSERT_TRUE(write_file(dir / (kStore + ".locks.json"), "{\"locks\": not json"));
    CliResult r = run_cli({"promote", kStore, "--lock", "new.lock.json", "--owner", "ci"}, dir);
    EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.err.find("malformed lock registry"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir / "new.lock.json"));
}

TEST_F(LockTrust, AnAuditLogBehindASymbolicLinkIsNeitherReadNorWritten) {
    fs::path dir = fresh();
    fs::path elsewhere = dir / "elsewhere.jsonl";
    fs::rename(dir / kLog, elsewhere);
    fs::create_symlink(elsewhere, dir / kLog);
    std::string before = *read_file(elsewhere);
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"verify", kLock}, {"flags", kLock}}) {
        CliResult r = run_cli(args, dir);
        EXPECT_EQ(r.exit_code, 2) << args[0] << ": " << r.out << r.err;
        EXPECT_NE(r.err.find("symbolic link"), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }
    EXPECT_EQ(*read_file(elsewhere), before) << "an entry went through the link";
}

TEST_F(LockTrust, ATornLastAuditLineIsReportedAndDoesNotSwallowTheNextEntry) {
    fs::path dir = fresh();
    ASSERT_EQ(run_cli({"flags", kLock}, dir).exit_code, 0);
    std::string log = *read_file(dir / kLog);
    ASSERT_TRUE(write_file(dir / kLog, log.substr(0, log.size() - 30)));  // the flags entry torn
    CliResult verified = run_cli({"verify", kLock}, dir);
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    EXPECT_NE(verified.err.find("torn"), std::string::npos) << verified.err;
    std::vector<json> entries = audit_entries(dir / kLog);
    ASSERT_FALSE(entries.empty());
    EXPECT_EQ(entries.back().at("action"), "verify") << "the verify entry was swallowed by the torn line";
    CliResult chain = run_cli({"audit", "--audit", kLog, "--verify"}, dir);
    EXPECT_EQ(chain.exit_code, 4) << chain.out << chain.err;
    EXPECT_NE(chain.err.find("entry 3 does not match"), std::string::npos) << chain.err;
    EXPECT_NE(chain.err.find("torn"), std::string::npos) << chain.err;
}

TEST_F(LockTrust, DevicesAndFifosAreRefusedAtOnce) {
    fs::path dir = fresh();
    CliResult zero = run_cli({"verify", "/dev/zero"}, dir, {}, 20);
    EXPECT_EQ(zero.exit_code, 2) << zero.err;
    EXPECT_NE(zero.err.find("not a regular file"), std::string::npos) << zero.err;
    ASSERT_EQ(mkfifo((dir / "fifo.lock.json").c_str(), 0600), 0);
    CliResult fifo = run_cli({"flags", "fifo.lock.json", "--fallback"}, dir, {}, 20);
    EXPECT_EQ(fifo.exit_code, 2) << "flags on a FIFO hung or failed otherwise: " << fifo.err;
    EXPECT_NE(fifo.err.find("not a regular file"), std::string::npos) << fifo.err;
    CliResult audit = run_cli({"audit", "--audit", "/dev/zero"}, dir, {}, 20);
    EXPECT_EQ(audit.exit_code, 2) << audit.err;
}

TEST_F(LockTrust, EverySuccessfulFlagsIsLogged) {
    fs::path dir = fresh();
    std::size_t before = audit_entries(dir / kLog).size();
    for (int i = 0; i < 2; ++i) ASSERT_EQ(shell_flags(run_cli({"flags", kLock}, dir).out), "-O3");
    std::vector<json> entries = audit_entries(dir / kLog);
    ASSERT_EQ(entries.size(), before + 2);
    EXPECT_EQ(entries.back().at("action"), "flags");
    EXPECT_EQ(entries.back().at("result"), "the route given: -O3");
    EXPECT_EQ(run_cli({"audit", "--audit", kLog, "--verify"}, dir).exit_code, 0);
}

}  // namespace
}  // namespace routetune::e2e
