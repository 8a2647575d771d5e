// Finding 8's last point (issue 9): an artifact edited together with the sha256 in its manifest
// passed `inspect`. inspect now cross-checks the artifact against the study store and the audit
// log the study wrote, says which checks passed and which could not be made, and exits 1 on a
// mismatch. One study is tuned once; every test works on its own copy of the artifact.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "util/sha256.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

class InspectEvidence : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        specs_ = new fs::path(scratch_specs());
        fs::create_directory(*specs_ / "out");
        CliResult r = run_cli({"tune", "fake_timed.toml", "--output", "out/best"}, *specs_);
        ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    static void TearDownTestSuite() { delete specs_; }

    // A copy of the tuned artifact and its manifest under out/NAME.
    static std::string copy(const std::string& name) {
        fs::copy_file(*specs_ / "out/best", *specs_ / "out" / name);
        fs::copy_file(*specs_ / "out/best.routetune.json", *specs_ / "out" / (name + ".routetune.json"));
        return "out/" + name;
    }
    static json manifest(const std::string& artifact) {
        return json::parse(read_file(*specs_ / (artifact + ".routetune.json")).value());
    }
    static void write_manifest(const std::string& artifact, const json& value) {
        write_file(*specs_ / (artifact + ".routetune.json"), value.dump(2));
    }
    // What an attacker does: new bytes in the artifact, their sha256 and size in the manifest.
    static void tamper_and_rehash(const std::string& artifact) {
        std::string bytes = "#!/bin/sh\necho tampered\n";
        write_file(*specs_ / artifact, bytes);
        json m = manifest(artifact);
        m["sha256"] = sha256_hex(bytes);
        m["bytes"] = bytes.size();
        write_manifest(artifact, m);
    }
    static CliResult inspect(std::vector<std::string> args) {
        args.insert(args.begin(), "inspect");
        return run_cli(args, *specs_);
    }

    static fs::path* specs_;
};

fs::path* InspectEvidence::specs_ = nullptr;

TEST_F(InspectEvidence, AnUntouchedArtifactPassesEveryCheck) {
    std::string artifact = copy("untouched");
    CliResult r = inspect({artifact});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("passed against its manifest"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("passed against the study: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("outcome, route and speedup agree"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("passed against the audit log: "), std::string::npos) << r.out;
    json checks = json::parse(inspect({artifact, "--json"}).out).at("checks");
    ASSERT_EQ(checks.size(), 3u);
    for (const auto& check : checks) EXPECT_EQ(check.at("result"), "passed") << check;
}

TEST_F(InspectEvidence, ARehashedManifestIsCaughtByTheStudyAndTheAuditLog) {
    std::string artifact = copy("rehashed");
    tamper_and_rehash(artifact);
    CliResult r = inspect({artifact});
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.out.find("passed against its manifest"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("MISMATCH against the study: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("recorded route -O=3's artifact as sha256 "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("MISMATCH against the audit log: "), std::string::npos) << r.err;
}

TEST_F(InspectEvidence, PointingTheManifestElsewhereIsUnverifiedAndTheVerifiersOwnSourcesCatchIt) {
    std::string artifact = copy("redirected");
    tamper_and_rehash(artifact);
    json m = manifest(artifact);
    m["store"] = (*specs_ / "nowhere.sqlite").string();
    m["audit"] = (*specs_ / "nowhere.audit.jsonl").string();
    write_manifest(artifact, m);
    CliResult r = inspect({artifact});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("unverified against the study: no study store at " + (*specs_ / "nowhere.sqlite").string()),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("unverified against the audit log: no audit log at "), std::string::npos) << r.out;
    EXPECT_EQ(inspect({artifact, "--strict"}).exit_code, 1);
    CliResult own = inspect({artifact, "--store", ".routetune/fake_timed.sqlite", "--audit",
                             ".routetune/fake_timed.sqlite.audit.jsonl"});
    EXPECT_EQ(own.exit_code, 1) << own.out;
    EXPECT_NE(own.err.find("MISMATCH against the study"), std::string::npos) << own.err;
    EXPECT_NE(own.err.find("MISMATCH against the audit log"), std::string::npos) << own.err;
}

TEST_F(InspectEvidence, AnEditedClaimDisagreesWithTheRecordedOutcome) {
    std::string artifact = copy("boasting");
    json m = manifest(artifact);
    m["speedup"] = m.at("speedup").get<double>() * 3;
    write_manifest(artifact, m);
    CliResult r = inspect({artifact});
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.err.find("MISMATCH against the study: the manifest says speedup"), std::string::npos) << r.err;
}

TEST_F(InspectEvidence, AnEditedAuditLogIsAMismatch) {
    std::string artifact = copy("audited");
    fs::path log = *specs_ / "forged.audit.jsonl";
    std::string text = read_file(*specs_ / ".routetune/fake_timed.sqlite.audit.jsonl").value();
    std::size_t at = text.find("\"artifact-written\"");
    ASSERT_NE(at, std::string::npos) << text;
    std::size_t sha = text.find("\"sha256\":\"", at) + 10;
    text[sha] = text[sha] == '0' ? '1' : '0';
    write_file(log, text);
    CliResult r = inspect({artifact, "--audit", log.string()});
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.err.find("MISMATCH against the audit log: " + log.string() + " line "), std::string::npos) << r.err;
}

TEST(InspectEvidenceBuilt, APlainBuildSaysItIsRecordedInNoStudy) {
    fs::path specs = scratch_specs();
    fs::create_directory(specs / "out");
    ASSERT_EQ(run_cli({"build", "fake_timed.toml", "--route", "-O=3", "--output", "out/o3"}, specs).exit_code, 0);
    CliResult r = run_cli({"inspect", "out/o3"}, specs);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("unverified against the study: a plain `routetune build --output` is recorded in no study store"),
              std::string::npos) << r.out;
}

}  // namespace
}  // namespace routetune::e2e
