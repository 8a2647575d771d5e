// The audit log's hash chain: concurrent writers from several processes keep it whole, and a
// one-byte edit anywhere in any entry is found at that entry. The file rules: a torn last line is
// ended before the next entry (never merged into it) and named by the chain check, the last line
// is found whatever its length, and links and non-regular files are refused. The actor is the
// account of the real uid; $USER is only a claim.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "govern/actor_identity.hpp"
#include "govern/audit_file.hpp"
#include "govern/audit_log.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

fs::path scratch_log() { return make_scratch_folder(fs::temp_directory_path(), "routetune-audit-") / "a.audit.jsonl"; }

std::size_t line_count(const std::string& text) { return std::count(text.begin(), text.end(), '\n'); }

TEST(AuditLog, EveryStringOfAnEntryPassesTheRedactionFilterBeforeItIsChained) {
    fs::path log = scratch_log();
    AuditEntry entry = make_audit_entry("promote-refused", "x.lock.json",
                                        {"routetune", "promote", "--reason", "GITHUB_TOKEN=ghp_0123456789abcdefghijklmnop"});
    entry.evidence = {{"failures", {"case 'a' exited with code 1: curl -u admin:adminpw https://x"}}};
    entry.proposed = "TILE=16 DB_PASSWORD=hunter2";
    entry.result = "mysql -uroot -pMyS3cretPass";
    append_audit_entry(log, entry);
    std::string text = read_file(log).value_or("");
    for (const std::string secret : {"ghp_0123456789", "adminpw", "hunter2", "MyS3cretPass"})
        EXPECT_EQ(text.find(secret), std::string::npos) << secret << " in " << text;
    EXPECT_NE(text.find("TILE=16"), std::string::npos) << text;
    EXPECT_EQ(verify_audit_chain(text), std::nullopt) << "the chain is over the filtered entry";
}

TEST(AuditLog, ConcurrentWritersFromSeveralProcessesKeepTheChainWhole) {
    fs::path log = scratch_log();
    constexpr int kProcesses = 6;
    constexpr int kEntries = 30;
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
        pid_t pid = fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            for (int i = 0; i < kEntries; ++i) {
                AuditEntry entry = make_audit_entry("test", "writer " + std::to_string(p), {"test", std::to_string(i)});
                entry.evidence = {{"padding", std::string(static_cast<std::size_t>(300 * (i % 5)), 'x')}};
                append_audit_entry(log, entry);
            }
            _exit(0);
        }
        children.push_back(pid);
    }
    for (pid_t pid : children) {
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    std::string text = *read_file(log);
    EXPECT_EQ(line_count(text), static_cast<std::size_t>(kProcesses * kEntries));
    auto broken = verify_audit_chain(text);
    EXPECT_FALSE(broken) << "line " << broken->line << ": " << broken->message;
}

TEST(AuditLog, AOneByteEditOfAnyEntryIsFoundAtThatEntry) {
    fs::path log = scratch_log();
    for (int i = 0; i < 4; ++i) {
        AuditEntry entry = make_audit_entry("action-" + std::to_string(i), "lock", {"routetune", "verify"});
        entry.result = "result " + std::to_string(i);
        append_audit_entry(log, entry);
    }
    const std::string text = *read_file(log);
    ASSERT_FALSE(verify_audit_chain(text));
    std::size_t line_start = 0;
    for (std::size_t line = 1; line <= 4; ++line) {
        std::size_t line_end = text.find('\n', line_start);
        for (std::size_t at = line_start; at < line_end; at += 7) {
            std::string edited = text;
            edited[at] = edited[at] == 'a' ? 'b' : 'a';
            auto broken = verify_audit_chain(edited);
            ASSERT_TRUE(broken) << "an edit at byte " << at << " went unnoticed";
            EXPECT_EQ(broken->line, line) << "byte " << at << ": " << broken->message;
        }
        line_start = line_end + 1;
    }
    std::string removed = text.substr(text.find('\n') + 1);
    auto broken = verify_audit_chain(removed);
    ASSERT_TRUE(broken);
    EXPECT_EQ(broken->line, 1u);
}

TEST(AuditLog, ATornLastLineIsEndedBeforeTheNextEntryAndNamedByTheChainCheck) {
    fs::path log = scratch_log();
    for (int i = 0; i < 3; ++i) append_audit_entry(log, make_audit_entry("action-" + std::to_string(i), "lock", {"t"}));
    std::string whole = *read_file(log);
    std::string torn = whole.substr(0, whole.size() - 40);  // a writer cut short inside its line
    ASSERT_TRUE(write_file(log, torn));
    AuditAppend written = append_audit_entry(log, make_audit_entry("after", "lock", {"t"}));
    ASSERT_TRUE(written.torn_offset.has_value());
    std::size_t torn_start = torn.rfind('\n') + 1;
    EXPECT_EQ(*written.torn_offset, torn_start);
    EXPECT_EQ(written.torn_bytes, torn.size() - torn_start);
    std::string text = *read_file(log);
    EXPECT_EQ(text.substr(0, torn.size() + 1), torn + "\n");
    EXPECT_EQ(written.offset, torn.size() + 1);
    std::vector<nlohmann::json> entries = parse_audit_lines(text);
    ASSERT_EQ(entries.size(), 3u) << "the entry after the torn line was swallowed";
    EXPECT_EQ(entries.back().at("action"), "after");
    EXPECT_EQ(entries.back().at("prev_sha256"), sha256_hex(torn.substr(torn_start)));
    EXPECT_EQ(entries.back().at("evidence").at("audit_torn_line").at("offset"), torn_start);
    auto broken = verify_audit_chain(text);
    ASSERT_TRUE(broken);
    EXPECT_EQ(broken->line, 3u);
    EXPECT_NE(broken->message.find("torn"), std::string::npos) << broken->message;
}

TEST(AuditLog, TheLastLineIsFoundWhateverItsLengthAndLinesAreReadAtTheirOffsets) {
    fs::path log = scratch_log();
    std::string big(4u << 20, 'x');
    ASSERT_TRUE(write_file(log, "first\n" + big + "\n"));
    auto file = AuditFile::open_to_read(log);
    ASSERT_TRUE(file);
    auto last = file->last_line();
    ASSERT_TRUE(last);
    EXPECT_EQ(last->offset, 6u);
    EXPECT_TRUE(last->text == big) << "last line of " << last->text.size() << " bytes";
    EXPECT_TRUE(last->complete);
    EXPECT_EQ(file->line_at(0)->text, "first");
    EXPECT_FALSE(file->line_at(3)) << "offset 3 is not a line start";
    EXPECT_TRUE(file->line_at(6)->text == big);
    EXPECT_EQ(file->line_before(6)->text, "first");
    ASSERT_TRUE(write_file(log, big));
    auto one_line = AuditFile::open_to_read(log)->last_line();
    EXPECT_EQ(one_line->offset, 0u);
    EXPECT_FALSE(one_line->complete);
    EXPECT_EQ(one_line->text.size(), big.size());
}

TEST(AuditLog, LinksAndFilesThatAreNotRegularAreRefused) {
    fs::path log = scratch_log();
    fs::path target = log.parent_path() / "target.txt";
    ASSERT_TRUE(write_file(target, "precious\n"));
    fs::create_symlink(target, log);
    EXPECT_THROW(append_audit_entry(log, make_audit_entry("x", "lock", {"t"})), UsageError);
    EXPECT_THROW(AuditFile::open_to_read(log), UsageError);
    EXPECT_EQ(*read_file(target), "precious\n");
    fs::path fifo = log.parent_path() / "fifo.audit.jsonl";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_THROW(append_audit_entry(fifo, make_audit_entry("x", "lock", {"t"})), UsageError);
    EXPECT_THROW(AuditFile::open_to_read(fifo), UsageError);
    EXPECT_FALSE(AuditFile::open_to_read(log.parent_path() / "absent.jsonl"));
}

TEST(AuditActor, TheRealUidsAccountActsAndUserIsOnlyAClaim) {
    ActorIdentity root = actor_for(0, "mallory");
    EXPECT_EQ(root.name, "root");
    EXPECT_EQ(root.claim, "mallory");
    EXPECT_TRUE(root.established);
    EXPECT_EQ(actor_for(0, "root").claim, "");
    EXPECT_EQ(actor_for(0, "").claim, "");
    ActorIdentity nobody = actor_for(4000000000u, nullptr);
    EXPECT_FALSE(nobody.established);
    EXPECT_EQ(nobody.name, "uid 4000000000");
    EXPECT_EQ(lock_owner(std::nullopt, "", root), "root");
    EXPECT_EQ(lock_owner(std::nullopt, "alice@example.org", root), "alice@example.org");
    EXPECT_EQ(lock_owner(std::string("ci"), "", nobody), "ci");
    EXPECT_THROW(lock_owner(std::nullopt, "", nobody), UsageError);
    EXPECT_THROW(lock_owner(std::string(""), "", root), UsageError);
    EXPECT_THROW(lock_owner(std::string("  "), "", root), UsageError);
}

}  // namespace
}  // namespace routetune
