#include "study/artifact_manifest.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "report/inspect_report.hpp"
#include "routetune/error.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class ArtifactManifestTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("routetune-manifest-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path write(const std::string& name, const std::string& bytes, fs::perms perms) {
        fs::path path = dir_ / name;
        std::ofstream(path, std::ios::binary) << bytes;
        fs::permissions(path, perms, fs::perm_options::replace);
        return path;
    }

    static std::string read(const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    static ManifestInfo info() {
        ManifestInfo i;
        i.route = Route::parse("-funroll-loops=on -O=3");
        i.fingerprint = {{"compiler", "gcc 12.2.0"}, {"cpu", "x86_64"}};
        i.study = "matmul";
        i.speedup = 1.25;
        i.ci_low = 1.2;
        i.ci_high = 1.3;
        i.outcome = Outcome::Improved;
        i.spec_path = "/specs/matmul.toml";
        i.created_at = "2026-11-29T23:00:00Z";
        return i;
    }

    fs::path dir_;
};

TEST_F(ArtifactManifestTest, WriteThenInspectMatches) {
    fs::path artifact = write("a.out", std::string("binary\0bytes", 12), fs::perms::owner_all | fs::perms::group_read);
    fs::path output = dir_ / "dist" / "sub" / "mm";
    fs::create_directories(output.parent_path());  // write_output creates no folder
    ArtifactManifest written = write_output(artifact, output, info());

    EXPECT_EQ(read(output), read(artifact));
    EXPECT_EQ(written.route, "-O=3 -funroll-loops=on");
    EXPECT_EQ(written.route_hash, Route::parse("-O=3 -funroll-loops=on").hash());
    EXPECT_EQ(written.sha256, sha256_hex(read(artifact)));
    EXPECT_EQ(written.bytes, read(artifact).size());
    EXPECT_EQ(written.outcome, "improved");
    EXPECT_FALSE(written.routetune_version.empty());
    EXPECT_EQ(manifest_path(output), fs::path(output.string() + ".routetune.json"));

    auto json = nlohmann::ordered_json::parse(read(manifest_path(output)));
    std::vector<std::string> keys;
    for (auto it = json.begin(); it != json.end(); ++it) keys.push_back(it.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"route", "route_hash", "fingerprint", "sha256", "bytes", "study",
                                              "spec", "store", "audit", "speedup", "speedup_ci95", "outcome", "created_at",
                                              "routetune_version"}));
    EXPECT_EQ(json["speedup_ci95"], nlohmann::ordered_json::parse("[1.2, 1.3]"));
    EXPECT_EQ(json["fingerprint"]["compiler"], "gcc 12.2.0");

    InspectResult result = inspect_artifact(output);
    EXPECT_TRUE(result.sha_matches);
    EXPECT_EQ(result.actual_sha256, written.sha256);
    EXPECT_EQ(result.actual_bytes, written.bytes);
    EXPECT_EQ(result.manifest.route, written.route);
    EXPECT_EQ(result.manifest.study, "matmul");
    EXPECT_EQ(result.manifest.spec, "/specs/matmul.toml");
    EXPECT_DOUBLE_EQ(result.manifest.speedup, 1.25);
    EXPECT_DOUBLE_EQ(result.manifest.ci_high, 1.3);
    EXPECT_EQ(result.manifest.created_at, "2026-11-29T23:00:00Z");
    EXPECT_EQ(result.manifest.fingerprint, info().fingerprint);
}

TEST_F(ArtifactManifestTest, KeepsTheExecutableBitAndLeavesNoTemporaries) {
    fs::path exe = write("exe", "#!/bin/true\n", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
    fs::path data = write("data", "plain", fs::perms::owner_read | fs::perms::owner_write);
    write_output(exe, dir_ / "out-exe", info());
    write_output(data, dir_ / "out-data", info());
    EXPECT_EQ(fs::status(dir_ / "out-exe").permissions(),
              fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
    EXPECT_EQ(fs::status(dir_ / "out-data").permissions(), fs::perms::owner_read | fs::perms::owner_write);
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"data", "exe", "out-data", "out-data.routetune.json", "out-exe",
                                               "out-exe.routetune.json"}));
}

TEST_F(ArtifactManifestTest, OverwritesAnEarlierOutput) {
    fs::path first = write("first", "one", fs::perms::owner_read | fs::perms::owner_write);
    fs::path second = write("second", "two!", fs::perms::owner_read | fs::perms::owner_write);
    fs::path output = dir_ / "out";
    write_output(first, output, info());
    ManifestInfo default_info = info();
    default_info.route = Route();
    default_info.outcome = Outcome::DefaultStays;
    default_info.speedup = default_info.ci_low = default_info.ci_high = 1;
    write_output(second, output, default_info);
    EXPECT_EQ(read(output), "two!");
    InspectResult result = inspect_artifact(output);
    EXPECT_TRUE(result.sha_matches);
    EXPECT_EQ(result.manifest.route, "");
    EXPECT_EQ(result.manifest.outcome, "default-stays");
    EXPECT_EQ(result.manifest.bytes, 4u);
}

TEST_F(ArtifactManifestTest, ModifiedArtifactIsAMismatch) {
    fs::path artifact = write("a.out", "original", fs::perms::owner_all);
    fs::path output = dir_ / "mm";
    ArtifactManifest written = write_output(artifact, output, info());
    std::ofstream(output, std::ios::binary | std::ios::app) << "tampered";
    InspectResult result = inspect_artifact(output);
    EXPECT_FALSE(result.sha_matches);
    EXPECT_EQ(result.manifest.sha256, written.sha256);
    EXPECT_EQ(result.actual_sha256, sha256_hex("originaltampered"));
    EXPECT_EQ(result.actual_bytes, 16u);
    std::string text = inspect_text(result);
    EXPECT_NE(text.find("(MISMATCH: the artifact now hashes to " + sha256_hex("originaltampered") + ")"),
              std::string::npos)
        << text;
    EXPECT_EQ(inspect_json(result)["sha256_matches"], false);
}

TEST_F(ArtifactManifestTest, MissingOrBrokenManifestIsAUsageError) {
    fs::path artifact = write("lonely", "x", fs::perms::owner_all);
    try {
        inspect_artifact(artifact);
        FAIL() << "expected UsageError";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("lonely.routetune.json"), std::string::npos) << e.what();
    }
    EXPECT_THROW(inspect_artifact(dir_ / "absent"), UsageError);
    std::ofstream(manifest_path(artifact)) << "{\"route\": 3}";
    EXPECT_THROW(inspect_artifact(artifact), UsageError);
    std::ofstream(manifest_path(artifact)) << "not json";
    EXPECT_THROW(inspect_artifact(artifact), UsageError);
}

TEST_F(ArtifactManifestTest, UnreadableSourceIsARuntimeFailure) {
    EXPECT_THROW(write_output(dir_ / "absent", dir_ / "out", info()), RuntimeFailure);
    EXPECT_FALSE(fs::exists(dir_ / "out"));
    EXPECT_THROW(write_output(dir_, dir_ / "out", info()), RuntimeFailure);
}

TEST(InspectReport, ExactText) {
    InspectResult result;
    result.artifact = "/out/mm";
    result.manifest.route = "-O=3";
    result.manifest.route_hash = "0123456789abcdef";
    result.manifest.fingerprint = {{"compiler", "gcc 12"}, {"os", "linux"}};
    result.manifest.sha256 = "aa";
    result.manifest.bytes = 10;
    result.manifest.study = "matmul";
    result.manifest.speedup = 1.25;
    result.manifest.ci_low = 1.2;
    result.manifest.ci_high = 1.3;
    result.manifest.outcome = "improved";
    result.manifest.created_at = "2026-11-29T23:00:00Z";
    result.manifest.routetune_version = "0.1.0";
    result.actual_sha256 = "aa";
    result.actual_bytes = 10;
    result.sha_matches = true;
    EXPECT_EQ(inspect_text(result),
              "artifact    /out/mm\n"
              "route       -O=3\n"
              "route hash  0123456789abcdef\n"
              "study       matmul\n"
              "outcome     improved\n"
              "speedup     1.25× (95% CI [1.20×, 1.30×])\n"
              "sha256      aa (matches the artifact)\n"
              "bytes       10\n"
              "created     2026-11-29T23:00:00Z\n"
              "routetune   0.1.0\n"
              "fingerprint\n"
              "  compiler  gcc 12\n"
              "  os        linux\n");
    auto json = inspect_json(result);
    EXPECT_EQ(json["artifact"], "/out/mm");
    EXPECT_EQ(json["sha256_matches"], true);
    EXPECT_EQ(json["manifest"]["route"], "-O=3");
}

}  // namespace
}  // namespace routetune
