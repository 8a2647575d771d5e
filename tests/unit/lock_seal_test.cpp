// A lock's seal: lock_sha256 covers every field (one added later too), the audit anchor finds
// its entry only in the log as it was written (not deleted, emptied, cut back or rewritten with
// recomputed hashes), and the anchoring entry pins the lock's body, so a forger who recomputes
// lock_sha256 is still found.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "govern/audit_log.hpp"
#include "govern/lock.hpp"
#include "govern/lock_seal.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

struct Sealed {
    fs::path dir;
    fs::path lock_file;
    fs::path log;
};

Lock sample_lock() {
    Lock lock;
    lock.route = "-O=3";
    lock.flags = {"-O3"};
    lock.default_flags = {"-O2"};
    lock.fingerprint = {{"compiler.path", "/usr/bin/gcc"}, {"compiler.sha256", std::string(64, 'a')}};
    lock.evidence.speedup = 3.865;
    lock.evidence.speedup_ci_low = 2.823;
    lock.owner = "alice";
    lock.review_by = "2027-03-01";
    return lock;
}

// A log with two entries before the promotion and one after, and the lock anchored at the promotion.
Sealed sealed_lock() {
    Sealed s;
    s.dir = make_scratch_folder(fs::temp_directory_path(), "routetune-seal-");
    s.lock_file = s.dir / "x.lock.json";
    s.log = default_audit_path(s.lock_file);
    append_audit_entry(s.log, make_audit_entry("promote-proposed", "x.lock.json", {"routetune", "promote"}));
    Lock lock = sample_lock();
    AuditEntry promoted = make_audit_entry("promoted", "x.lock.json", {"routetune", "promote"});
    promoted.evidence = {{"lock_body_sha256", lock_body_sha256(lock)}};
    seal_lock(lock, append_audit_entry(s.log, promoted), s.lock_file, nullptr);
    write_lock(s.lock_file, lock);
    append_audit_entry(s.log, make_audit_entry("verify", "x.lock.json", {"routetune", "verify"}));
    return s;
}

std::set<std::string> tampered_fields(const Sealed& s) {
    std::set<std::string> fields;
    for (const auto& d : check_seal(read_lock_json(s.lock_file), s.log, {}).tampering) fields.insert(d.field);
    return fields;
}

void edit_lock(const Sealed& s, const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json lock = read_lock_json(s.lock_file);
    edit(lock);
    ASSERT_TRUE(write_file(s.lock_file, lock.dump(2)));
}

TEST(LockSeal, AnIntactLockAndItsLogPass) {
    Sealed s = sealed_lock();
    EXPECT_EQ(tampered_fields(s), std::set<std::string>{});
    nlohmann::json lock = read_lock_json(s.lock_file);
    EXPECT_EQ(lock.at("lock_sha256"), sha256_hex(lock_content_text(lock)));
    EXPECT_EQ(lock.at("audit_anchor").at("log"), "x.lock.json.audit.jsonl");
}

TEST(LockSeal, TheHashCoversEveryFieldAndOneAddedLater) {
    std::vector<std::function<void(nlohmann::json&)>> edits{
        [](nlohmann::json& l) { l["flags"].push_back("-fplugin=evil.so"); },
        [](nlohmann::json& l) { l["evidence"]["speedup"] = 9.0; },
        [](nlohmann::json& l) { l["owner"] = "mallory"; },
        [](nlohmann::json& l) { l["review_by"] = "2099-01-01"; },
        [](nlohmann::json& l) { l["fingerprint"]["compiler.path"] = "/tmp/evil.sh"; },
        [](nlohmann::json& l) { l["retired"]["time"] = "2026-01-01T00:00:00Z"; },
        [](nlohmann::json& l) { l["a_field_of_a_later_version"] = "x"; },
        [](nlohmann::json& l) { l.erase("reason"); },
    };
    for (std::size_t i = 0; i < edits.size(); ++i) {
        Sealed s = sealed_lock();
        edit_lock(s, edits[i]);
        EXPECT_TRUE(tampered_fields(s).count("lock_sha256")) << "edit " << i << " went unnoticed";
    }
}

TEST(LockSeal, ReadingAndWritingTheLockAgainKeepsItsCanonicalText) {
    Sealed s = sealed_lock();
    nlohmann::json once = read_lock_json(s.lock_file);
    ASSERT_TRUE(write_file(s.lock_file, once.dump(4)));  // another indentation is not an edit
    EXPECT_EQ(lock_content_text(read_lock_json(s.lock_file)), lock_content_text(once));
    EXPECT_EQ(tampered_fields(s), std::set<std::string>{});
}

TEST(LockSeal, AForgerWhoRecomputesTheHashIsFoundByTheAnchoringEntry) {
    Sealed s = sealed_lock();
    edit_lock(s, [](nlohmann::json& l) {
        l["flags"].push_back("-fplugin=evil.so");
        l["lock_sha256"] = sha256_hex(lock_content_text(l));
    });
    EXPECT_EQ(tampered_fields(s), std::set<std::string>{"audit.lock_body_sha256"});
}

TEST(LockSeal, ALogDeletedEmptiedOrCutBackIsFound) {
    Sealed s = sealed_lock();
    fs::remove(s.log);
    EXPECT_EQ(tampered_fields(s), std::set<std::string>{"audit_anchor"});
    ASSERT_TRUE(write_file(s.log, ""));
    EXPECT_EQ(tampered_fields(s), std::set<std::string>{"audit_anchor"});

    Sealed cut = sealed_lock();
    std::string text = *read_file(cut.log);
    ASSERT_TRUE(write_file(cut.log, text.substr(0, text.find('\n') + 1)));  // head -n 1
    EXPECT_EQ(tampered_fields(cut), std::set<std::string>{"audit_anchor"});
}

TEST(LockSeal, ALogRewrittenWithRecomputedHashesIsFound) {
    for (std::size_t rewritten_line : {0u, 1u}) {
        Sealed s = sealed_lock();
        std::string text = *read_file(s.log);
        std::vector<nlohmann::json> entries = parse_audit_lines(text);
        entries[rewritten_line]["actor"] = "bob";
        std::string previous_line, out;
        for (auto& entry : entries) {  // a forger who knows the format recomputes the whole chain
            entry["prev_sha256"] = previous_line.empty() ? kAuditGenesis : sha256_hex(previous_line);
            entry.erase("sha256");
            entry["sha256"] = sha256_hex(entry.dump());
            previous_line = entry.dump();
            out += previous_line + "\n";
        }
        ASSERT_TRUE(write_file(s.log, out));
        ASSERT_FALSE(verify_audit_chain(out)) << "the forged chain should look intact on its own";
        EXPECT_EQ(tampered_fields(s), std::set<std::string>{"audit_anchor"}) << "line " << rewritten_line + 1;
    }
}

TEST(LockSeal, AnEntryBeforeTheAnchorEditedWithoutRechainingIsFound) {
    Sealed s = sealed_lock();
    std::string text = *read_file(s.log);
    std::size_t first_end = text.find('\n');
    nlohmann::json first = nlohmann::json::parse(text.substr(0, first_end));
    first["actor"] = std::string(first["actor"].get<std::string>().size(), 'b');  // "bob", as long as the original
    first.erase("sha256");
    first["sha256"] = sha256_hex(first.dump());  // its own hash fixed, the entry after it left alone
    std::string edited = first.dump();
    ASSERT_EQ(edited.size(), first_end) << "the same length, so the anchor's offset still holds";
    ASSERT_TRUE(write_file(s.log, edited + text.substr(first_end)));
    EXPECT_EQ(tampered_fields(s), std::set<std::string>{"audit_anchor"});
}

TEST(LockSeal, AnEntryThatDoesNotWriteLocksCannotAnchorOne) {
    Sealed s = sealed_lock();
    std::string text = *read_file(s.log);
    std::size_t verify_offset = text.rfind('\n', text.size() - 2) + 1;
    edit_lock(s, [&](nlohmann::json& l) {
        nlohmann::json verify = nlohmann::json::parse(text.substr(verify_offset, text.size() - 1 - verify_offset));
        l["audit_anchor"] = {{"log", "x.lock.json.audit.jsonl"}, {"offset", verify_offset}, {"sha256", verify["sha256"]}};
        l["lock_sha256"] = sha256_hex(lock_content_text(l));
    });
    std::set<std::string> fields = tampered_fields(s);
    EXPECT_TRUE(fields.count("audit_anchor")) << "a 'verify' entry anchored a lock";
}

}  // namespace
}  // namespace routetune
