// A lock's life beyond promotion, with the real GCC on examples/governance: signed with an ssh
// key (OpenSSH's ssh-keygen -Y; the signer's principal is the actor, and a forgery that rewrites
// the lock and its log consistently is still found by the signature); reviewed with an exit
// code CI can act on (5 for re-tune and retire); retired by command (the default route, logged,
// the evidence kept); and promotion of a route other than the study's winner recorded as an
// override, with the override rate reported.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "e2e/governance_harness.hpp"
#include "govern/lock.hpp"
#include "util/files.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

// A new ed25519 key at file (no passphrase); its public key line.
std::string new_key(const fs::path& file, const std::string& comment) {
    ProcessSpec spec;
    spec.argv = {"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", file.string()};
    spec.timeout_s = 30;
    EXPECT_TRUE(run_process(spec).succeeded()) << "ssh-keygen could not make a key";
    return read_file(fs::path(file.string() + ".pub")).value_or("");
}

TEST(LockSigning, TheSignersPrincipalActsAndAConsistentForgeryIsFoundByTheSignature) {
    if (find_executable("ssh-keygen").empty()) GTEST_SKIP() << "ssh-keygen (Debian's openssh-client) is not installed";
    fs::path dir = scratch_example(false);
    std::string alice = new_key(dir / "alice", "alice");
    new_key(dir / "mallory", "mallory");
    ASSERT_TRUE(write_file(dir / "allowed_signers", "alice@example.org " + alice));
    ASSERT_EQ(run_cli({"tune", "spec.toml"}, dir).exit_code, 0);

    CliResult stranger = run_cli({"promote", kStore, "--lock", kLock, "--sign", "mallory", "--allowed-signers",
                                  "allowed_signers"}, dir);
    EXPECT_EQ(stranger.exit_code, 2) << stranger.err;
    EXPECT_NE(stranger.err.find("names no principal"), std::string::npos) << stranger.err;
    EXPECT_FALSE(fs::exists(dir / kLock));

    CliResult promoted = run_cli({"promote", kStore, "--lock", kLock, "--sign", "alice", "--allowed-signers",
                                  "allowed_signers"}, dir);
    ASSERT_EQ(promoted.exit_code, 0) << promoted.out << promoted.err;
    json lock = json::parse(*read_file(dir / kLock));
    EXPECT_EQ(lock.at("signer"), "alice@example.org");
    EXPECT_EQ(lock.at("owner"), "alice@example.org");
    EXPECT_NE(lock.at("signature").get<std::string>().find("BEGIN SSH SIGNATURE"), std::string::npos);
    EXPECT_EQ(audit_entries(dir / kLog).back().at("actor"), "alice@example.org");
    CliResult verified = run_cli({"verify", kLock, "--allowed-signers", "allowed_signers"}, dir);
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    EXPECT_NE(verified.out.find("signed by alice@example.org"), std::string::npos) << verified.out;
    CliResult unchecked = run_cli({"verify", kLock}, dir);
    EXPECT_EQ(unchecked.exit_code, 0);
    EXPECT_NE(unchecked.err.find("checked only with --allowed-signers"), std::string::npos) << unchecked.err;

    // The forger edits the flags, recomputes the lock's hash, the promoted entry's record of the
    // body, the whole chain and the anchor: only the signature can tell.
    std::string intact_lock = *read_file(dir / kLock), intact_log = *read_file(dir / kLog);
    lock["flags"].push_back("-fplugin=evil.so");
    std::vector<json> entries = audit_entries(dir / kLog);
    std::size_t promoted_at = 0;
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (entries[i].at("action") == "promoted") promoted_at = i;
    entries[promoted_at]["evidence"]["lock_body_sha256"] = sha256_hex(lock_body_text(lock));
    std::string log = rechained(entries);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < promoted_at; ++i) offset = log.find('\n', offset) + 1;
    json anchor_entry = json::parse(log.substr(offset, log.find('\n', offset) - offset));
    lock["audit_anchor"]["offset"] = offset;
    lock["audit_anchor"]["sha256"] = anchor_entry.at("sha256");
    lock["lock_sha256"] = sha256_hex(lock_content_text(lock));
    ASSERT_TRUE(write_file(dir / kLog, log));
    ASSERT_TRUE(write_file(dir / kLock, lock.dump(2)));
    CliResult forged = run_cli({"verify", kLock, "--allowed-signers", "allowed_signers", "--json"}, dir);
    EXPECT_EQ(forged.exit_code, 4) << forged.out << forged.err;
    EXPECT_EQ(json::parse(forged.out).at("tampering").at(0).at("field"), "signature") << forged.out;
    CliResult forged_flags = run_cli({"flags", kLock, "--allowed-signers", "allowed_signers"}, dir);
    EXPECT_EQ(forged_flags.exit_code, 4);
    EXPECT_EQ(forged_flags.out, "");

    ASSERT_TRUE(write_file(dir / kLock, intact_lock));
    ASSERT_TRUE(write_file(dir / kLog, intact_log));
    CliResult unsigned_review = run_cli({"review", kLock, "--allowed-signers", "allowed_signers"}, dir);
    EXPECT_EQ(unsigned_review.exit_code, 2) << unsigned_review.err;
    EXPECT_NE(unsigned_review.err.find("give --sign KEY"), std::string::npos) << unsigned_review.err;
    CliResult retired = run_cli({"retire", kLock, "--reason", "moved to the new kernel", "--sign", "alice",
                                 "--allowed-signers", "allowed_signers"}, dir);
    EXPECT_EQ(retired.exit_code, 0) << retired.out << retired.err;
    CliResult after = run_cli({"verify", kLock, "--allowed-signers", "allowed_signers", "--json"}, dir);
    EXPECT_EQ(after.exit_code, 0) << after.out << after.err;
    EXPECT_EQ(json::parse(after.out).at("verdict"), "retired");
    EXPECT_EQ(json::parse(after.out).at("signer"), "alice@example.org");
}

TEST(LockReview, ReviewExitsFiveOnReTuneAndRetireAndRetireGivesTheDefaultRoute) {
    fs::path dir = scratch_example(true);
    ASSERT_EQ(run_cli({"tune", "spec.toml"}, dir).exit_code, 0);
    ASSERT_EQ(run_cli({"promote", kStore, "--lock", kLock, "--owner", "ci"}, dir).exit_code, 0);

    write_wrapper(dir, 2);  // another compiler release: the environment changed
    CliResult retune = run_cli({"review", kLock, "--json"}, dir);
    EXPECT_EQ(retune.exit_code, 5) << retune.out << retune.err;
    EXPECT_EQ(json::parse(retune.out).at("recommendation"), "re-tune");
    write_wrapper(dir, 1);

    ASSERT_TRUE(write_file(dir / "slow-route", ""));  // the route now builds at -O0: its gain is gone
    CliResult gone = run_cli({"review", kLock, "--json"}, dir);
    ASSERT_EQ(gone.exit_code, 5) << gone.out << gone.err;
    json review = json::parse(gone.out);
    EXPECT_EQ(review.at("recommendation"), "retire") << gone.out;
    EXPECT_EQ(review.at("override_rate"), json({{"promotions", 1}, {"overrides", 0}, {"rate", 0.0}}));
    EXPECT_EQ(shell_flags(run_cli({"flags", kLock}, dir).out), "-O3") << "review only recommends; the lock stays in force";

    CliResult retired = run_cli({"retire", kLock, "--reason", "the gain is gone"}, dir);
    ASSERT_EQ(retired.exit_code, 0) << retired.out << retired.err;
    json lock = json::parse(*read_file(dir / kLock));
    EXPECT_EQ(lock.at("retired").at("reason"), "the gain is gone");
    EXPECT_EQ(lock.at("route"), "-O=3") << "the evidence is kept";
    EXPECT_EQ(lock.at("evidence").at("cases").size(), 4u) << "the governance example's four cases, component-failure included";
    CliResult flags = run_cli({"flags", kLock}, dir);
    EXPECT_EQ(flags.exit_code, 0) << flags.err;
    EXPECT_EQ(shell_flags(flags.out), "-O2");
    json logged = audit_entries(dir / kLog).back();
    EXPECT_EQ(logged.at("action"), "flags");
    EXPECT_NE(logged.at("result").get<std::string>().find("retired"), std::string::npos) << logged.dump();
    CliResult verified = run_cli({"verify", kLock}, dir);
    EXPECT_EQ(verified.exit_code, 0) << verified.err;
    EXPECT_EQ(verified.out.rfind("retired: " + kLock, 0), 0u) << verified.out;
    EXPECT_NE(verified.out.find("the gain is gone"), std::string::npos) << verified.out;
    EXPECT_EQ(run_cli({"review", kLock}, dir).exit_code, 2);
    EXPECT_EQ(run_cli({"retire", kLock, "--reason", "again"}, dir).exit_code, 2);

    edit_lock_by_hand(dir / kLock, [](json& l) { l["retired"] = {{"time", ""}, {"actor", ""}, {"reason", ""}}; });
    CliResult unretired = run_cli({"flags", kLock}, dir);
    EXPECT_EQ(unretired.exit_code, 4) << "a lock un-retired by hand is tampered";
    EXPECT_EQ(unretired.out, "");
}

TEST(LockOverride, PromotingARouteOtherThanTheWinnerIsRecordedAndCounted) {
    fs::path dir = scratch_example(false);
    CliResult tuned = run_cli({"tune", "spec.toml", "--search", "full", "--routes", "-O=3 -funroll-loops=[off|on]", "--json"}, dir);
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    std::string winner = json::parse(tuned.out).at("winner").at("route");
    std::string other = winner == "-O=3 -funroll-loops=on" ? "-O=3 -funroll-loops=off" : "-O=3 -funroll-loops=on";
    ASSERT_EQ(run_cli({"promote", kStore, "--lock", kLock, "--owner", "ci"}, dir).exit_code, 0);
    EXPECT_FALSE(json::parse(*read_file(dir / kLock)).at("evidence").at("overrides_winner").get<bool>());
    CliResult overridden = run_cli({"promote", kStore, "--route", other, "--lock", kLock, "--owner", "ci"}, dir);
    ASSERT_EQ(overridden.exit_code, 0) << overridden.out << overridden.err;  // over the lock it wrote before
    EXPECT_NE(overridden.out.find("recorded as an override: the study's winner is " + winner), std::string::npos)
        << overridden.out;
    json lock = json::parse(*read_file(dir / kLock));
    EXPECT_TRUE(lock.at("evidence").at("overrides_winner").get<bool>());
    EXPECT_EQ(lock.at("evidence").at("winner"), winner);
    CliResult audit = run_cli({"audit", "--audit", kLog, "--json"}, dir);
    ASSERT_EQ(audit.exit_code, 0) << audit.err;
    EXPECT_EQ(json::parse(audit.out).at("override_rate"), json({{"promotions", 2}, {"overrides", 1}, {"rate", 0.5}}));
    EXPECT_EQ(run_cli({"verify", kLock}, dir).exit_code, 0);
}

}  // namespace
}  // namespace routetune::e2e
