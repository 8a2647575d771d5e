// Verification of a lock, through the govern headers themselves: environment_differences
// against a fake machine (every key either side lacks, a compiler version or path alone, the
// [build] inputs, the artifact; routetune's own version a note, not a difference), verify_lock's
// typed verdicts and their output names, and assess_lock's stale rule on a sealed lock whose
// environment differs in exactly one key.
#include <gtest/gtest.h>

#include <stdexcept>

#include "govern/audit_log.hpp"
#include "govern/lock.hpp"
#include "govern/lock_seal.hpp"
#include "govern/lock_standing.hpp"
#include "govern/verification.hpp"
#include "spec/build_inputs.hpp"
#include "unit/fake_system_probe.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

const char* kSpec = R"(
[compiler]
adapter = "gcc"
[build]
command = ["{compiler}", "{flags}", "src/k.c", "-o", "{artifact}"]
inputs = ["src/*.c"]
[run]
command = ["{artifact}"]
[[case]]
name = "typical"
)";

// A spec in a scratch folder (removed at the end) and a lock of it whose fingerprint and
// inputs were taken on probe.
struct LockedHere {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-verification-");
    fs::path lock_file = dir / "x.lock.json";
    Lock lock;
    FakeProbe probe = machine_without_gpu();

    LockedHere() {
        fs::create_directories(dir / "src");
        EXPECT_TRUE(write_file(dir / "spec.toml", kSpec));
        EXPECT_TRUE(write_file(dir / "src" / "k.c", "int main(void) { return 0; }\n"));
        Spec spec = load_spec(dir / "spec.toml");
        lock.route = "-O=3";
        lock.spec = "spec.toml";
        lock.fingerprint = take_fingerprint(spec, probe).values;
        lock.inputs = build_input_hashes(spec, UnmatchedInputs::Allowed);
    }
    LockedHere(const LockedHere&) = delete;
    LockedHere& operator=(const LockedHere&) = delete;
    ~LockedHere() { remove_tree_quietly(dir); }

    std::vector<Difference> differences(std::vector<std::string>* notes = nullptr) {
        return environment_differences(lock, lock_file, probe, notes);
    }
    /// The one difference, described; every difference's field when there is not exactly one.
    std::string only_difference() {
        std::vector<Difference> found = differences();
        if (found.size() == 1) return describe(found[0]);
        std::string fields = std::to_string(found.size()) + " differences:";
        for (const auto& d : found) fields += " " + d.field;
        return fields;
    }
};

std::vector<std::string> fields(const std::vector<Difference>& differences) {
    std::vector<std::string> names;
    for (const auto& d : differences) names.push_back(d.field);
    return names;
}

TEST(EnvironmentDifferences, NoneWhenNothingChanged) {
    LockedHere l;
    EXPECT_EQ(fields(l.differences()), std::vector<std::string>{});
}

TEST(EnvironmentDifferences, AKeyPresentNowButAbsentFromTheLockIsOne) {
    LockedHere l;
    l.lock.fingerprint.erase("os.kernel");
    EXPECT_EQ(l.only_difference(), "os.kernel: locked '(absent)', current '6.1.0-18-amd64'");
}

TEST(EnvironmentDifferences, AKeyInTheLockButAbsentNowIsOne) {
    LockedHere l;
    l.probe.outputs.clear();
    EXPECT_EQ(l.only_difference(), "compiler.version: locked 'gcc (Debian 12.2.0-14) 12.2.0', current '(absent)'");
}

TEST(EnvironmentDifferences, ACompilerVersionAloneIsOne) {
    LockedHere l;
    l.probe.outputs[{"/usr/bin/gcc-12", "--version"}] = "gcc (Debian 12.3.0-1) 12.3.0\n";
    EXPECT_EQ(l.only_difference(),
              "compiler.version: locked 'gcc (Debian 12.2.0-14) 12.2.0', current 'gcc (Debian 12.3.0-1) 12.3.0'");
}

// The same compiler binary found at another path first on PATH is a different compiler.path:
// the lock pins where its compiler is, not only what it hashes to.
TEST(EnvironmentDifferences, TheCompilerIsPinnedToItsLockedPath) {
    LockedHere l;
    l.probe.programs["gcc"] = "/opt/gcc/bin/gcc";
    l.probe.files["/opt/gcc/bin/gcc"] = l.probe.files["/usr/bin/gcc-12"];
    l.probe.outputs[{"/opt/gcc/bin/gcc", "--version"}] = l.probe.outputs[{"/usr/bin/gcc-12", "--version"}];
    EXPECT_EQ(l.only_difference(), "compiler.path: locked '/usr/bin/gcc-12', current '/opt/gcc/bin/gcc'");
}

TEST(EnvironmentDifferences, RoutetunesOwnVersionIsANoteNotADifference) {
    LockedHere l;
    l.lock.fingerprint["routetune.version"] = "0.0.1";
    std::vector<std::string> notes;
    EXPECT_EQ(fields(l.differences(&notes)), std::vector<std::string>{});
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("the lock was written by routetune 0.0.1"), std::string::npos) << notes[0];
}

TEST(EnvironmentDifferences, BuildInputsChangedAddedOrRemoved) {
    LockedHere l;
    ASSERT_TRUE(write_file(l.dir / "src" / "k.c", "int main(void) { return 1; }\n"));
    ASSERT_TRUE(write_file(l.dir / "src" / "new.c", "int added;\n"));
    l.lock.inputs["src/gone.c"] = std::string(64, 'a');
    auto differences = l.differences();
    EXPECT_EQ(fields(differences), (std::vector<std::string>{"input.src/gone.c", "input.src/k.c", "input.src/new.c"}));
    EXPECT_EQ(differences[0].current, "(absent)");
    EXPECT_EQ(differences[2].locked, "(absent)");
}

TEST(EnvironmentDifferences, AnArtifactThatNoLongerHashesAsLockedAndASpecThatNoLongerLoads) {
    LockedHere l;
    ASSERT_TRUE(write_file(l.dir / "a.out", "rebuilt"));
    l.probe.files[(l.dir / "a.out").string()] = "rebuilt";
    l.lock.artifact = "a.out";
    l.lock.artifact_sha256 = sha256_hex("as promoted");
    EXPECT_EQ(fields(l.differences()), std::vector<std::string>{"artifact.sha256"});
    ASSERT_TRUE(write_file(l.dir / "spec.toml", "[build\n"));
    EXPECT_EQ(fields(l.differences()), std::vector<std::string>{"spec.path"});
}

TEST(LockVerdict, EachVerdictHasItsOutputName) {
    EXPECT_EQ(to_string(LockVerdict::Valid), "valid");
    EXPECT_EQ(to_string(LockVerdict::ReviewDue), "review-due");
    EXPECT_EQ(to_string(LockVerdict::Stale), "stale");
    EXPECT_EQ(to_string(LockVerdict::Regressed), "regressed");
    EXPECT_EQ(to_string(LockVerdict::Tampered), "tampered");
    EXPECT_EQ(to_string(LockVerdict::Retired), "retired");
}

LockStanding standing_of(LockState state, std::string review_by = "2999-01-01") {
    LockStanding standing;
    standing.state = state;
    standing.lock = Lock{};
    standing.lock->route = "-O=3";
    standing.lock->review_by = std::move(review_by);
    if (state == LockState::Stale) standing.differences = {{"os.kernel", "6.1", "6.2"}};
    if (state == LockState::Tampered) standing.tampering = {{"lock_sha256", "a", "b"}};
    return standing;
}

TEST(VerifyLock, TheStandingGivesTheVerdictWithoutARerun) {
    EXPECT_EQ(verify_lock(standing_of(LockState::Usable), "x.lock.json", false).verdict, LockVerdict::Valid);
    EXPECT_EQ(verify_lock(standing_of(LockState::Retired), "x.lock.json", false).verdict, LockVerdict::Retired);
    Verification stale = verify_lock(standing_of(LockState::Stale), "x.lock.json", false);
    EXPECT_EQ(stale.verdict, LockVerdict::Stale);
    EXPECT_EQ(fields(stale.differences), std::vector<std::string>{"os.kernel"});
    Verification tampered = verify_lock(standing_of(LockState::Tampered), "x.lock.json", false);
    EXPECT_EQ(tampered.verdict, LockVerdict::Tampered);
    EXPECT_EQ(fields(tampered.tampering), std::vector<std::string>{"lock_sha256"});
    EXPECT_THROW(verify_lock(standing_of(LockState::Unreadable), "x.lock.json", false), std::logic_error);
}

TEST(VerifyLock, APassedReviewDateIsReviewDueWithAWarning) {
    Verification due = verify_lock(standing_of(LockState::Usable, "2000-01-01"), "x.lock.json", false);
    EXPECT_EQ(due.verdict, LockVerdict::ReviewDue);
    ASSERT_EQ(due.warnings.size(), 1u);
    EXPECT_NE(due.warnings[0].find("the review date 2000-01-01 has passed"), std::string::npos) << due.warnings[0];
    std::string json = verification_json(due, standing_of(LockState::Usable, "2000-01-01"), "x.lock.json");
    EXPECT_NE(json.find("\"verdict\": \"review-due\""), std::string::npos) << json;
}

// A sealed lock of this machine (the real probe) is usable; the same lock with one fingerprint
// key changed before sealing is stale, naming that one key: one difference is enough.
TEST(AssessLock, OneDifferenceMakesAnIntactLockStale) {
    for (bool changed : {false, true}) {
        LockedHere l;
        l.lock.fingerprint = take_fingerprint(load_spec(l.dir / "spec.toml"), *make_system_probe()).values;
        if (changed) l.lock.fingerprint["os.kernel"] = "0.0.0-locked";
        fs::path log = default_audit_path(l.lock_file);
        AuditEntry promoted = make_audit_entry("promoted", "x.lock.json", {"routetune", "promote"});
        promoted.evidence = {{"lock_body_sha256", lock_body_sha256(l.lock)}};
        seal_lock(l.lock, append_audit_entry(log, promoted), l.lock_file, nullptr);
        write_lock(l.lock_file, l.lock);
        LockStanding standing = assess_lock(l.lock_file, LockTrust{});
        EXPECT_EQ(standing.state, changed ? LockState::Stale : LockState::Usable) << to_string(standing.state);
        EXPECT_EQ(fields(standing.differences), changed ? std::vector<std::string>{"os.kernel"} : std::vector<std::string>{});
    }
}

}  // namespace
}  // namespace routetune
