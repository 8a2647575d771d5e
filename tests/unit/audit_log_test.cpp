// The audit log's hash chain: concurrent writers from several processes keep it whole, and a
// one-byte edit anywhere in any entry is found at that entry.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "govern/audit_log.hpp"
#include "util/files.hpp"

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

}  // namespace
}  // namespace routetune
