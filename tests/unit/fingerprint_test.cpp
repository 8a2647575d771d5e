// The environment fingerprint: exact keys and values from a fake probe, the JSON round trip,
// and the exact lines of a diff.
#include <gtest/gtest.h>

#include "eval/fingerprint.hpp"
#include "unit/fake_system_probe.hpp"
#include "routetune/error.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

Spec sample_spec() {
    Spec spec;
    spec.compiler.adapter = "gcc";
    spec.compiler.path = "gcc";
    spec.sha256 = std::string(64, 'e');
    spec.cases = {{"typical", "/data/a.in", "/data/a.out", {}}, {"empty", "", "", {}}};
    return spec;
}

TEST(FingerprintTest, FakeProbeGivesExactValues) {
    FakeProbe probe = machine_without_gpu();
    Fingerprint fingerprint = take_fingerprint(sample_spec(), probe);
    ASSERT_EQ(fingerprint.values.count("routetune.version"), 1u);
    EXPECT_NE(fingerprint.values.at("routetune.version"), "unknown");
    EXPECT_FALSE(fingerprint.values.at("routetune.version").empty());
    fingerprint.values.erase("routetune.version");
    std::map<std::string, std::string> expected = {
        {"case.typical.input_sha256", sha256_hex("1 2 3")},
        {"case.typical.reference_sha256", sha256_hex("6")},
        {"compiler.adapter", "gcc"},
        {"compiler.path", "/usr/bin/gcc-12"},
        {"compiler.sha256", sha256_hex("ELF gcc bytes")},
        {"compiler.version", "gcc (Debian 12.2.0-14) 12.2.0"},
        {"cpu.cores", "2"},
        {"cpu.flags_sha256", sha256_hex("fpu vme sse sse2 avx2")},
        {"cpu.model", "Intel(R) Xeon(R) Gold 6338"},
        {"os.kernel", "6.1.0-18-amd64"},
        {"os.machine", "x86_64"},
        {"os.name", "Debian GNU/Linux 12 (bookworm)"},
        {"spec.sha256", std::string(64, 'e')},
    };
    EXPECT_EQ(fingerprint.values, expected);
}

TEST(FingerprintTest, GpuKeysComeFromNvidiaSmi) {
    FakeProbe probe = machine_without_gpu();
    probe.programs["nvidia-smi"] = "/usr/bin/nvidia-smi";
    probe.outputs[{"/usr/bin/nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"}] =
        "NVIDIA H200, 550.54.15\nNVIDIA H200, 550.54.15\n";
    probe.outputs[{"/usr/bin/nvidia-smi"}] =
        "+------+\n| NVIDIA-SMI 550.54.15    Driver Version: 550.54.15    CUDA Version: 12.4     |\n";
    Fingerprint fingerprint = take_fingerprint(sample_spec(), probe);
    EXPECT_EQ(fingerprint.values.at("gpu.name"), "NVIDIA H200; NVIDIA H200");
    EXPECT_EQ(fingerprint.values.at("gpu.driver"), "550.54.15");
    EXPECT_EQ(fingerprint.values.at("gpu.count"), "2");
    EXPECT_EQ(fingerprint.values.at("gpu.cuda"), "12.4");
}

TEST(FingerprintTest, MissingCompilerAndCustomAdapter) {
    FakeProbe probe = machine_without_gpu();
    probe.programs.clear();
    Fingerprint fingerprint = take_fingerprint(sample_spec(), probe);
    EXPECT_EQ(fingerprint.values.at("compiler.path"), "gcc (not found)");
    EXPECT_EQ(fingerprint.values.count("compiler.version"), 0u);
    EXPECT_EQ(fingerprint.values.count("gpu.name"), 0u);
    Spec custom = sample_spec();
    custom.compiler.adapter = "custom";
    custom.compiler.path = "";
    fingerprint = take_fingerprint(custom, probe);
    EXPECT_EQ(fingerprint.values.at("compiler.adapter"), "custom");
    EXPECT_EQ(fingerprint.values.count("compiler.path"), 0u);
}

TEST(FingerprintTest, JsonRoundTrip) {
    Fingerprint fingerprint;
    fingerprint.values = {{"a", "1"}, {"b", "x → y \"quoted\""}};
    EXPECT_EQ(fingerprint.to_json(), R"({"a":"1","b":"x → y \"quoted\""})");
    EXPECT_EQ(Fingerprint::from_json(fingerprint.to_json(2)), fingerprint);
    EXPECT_THROW(Fingerprint::from_json("[1]"), RuntimeFailure);
    EXPECT_THROW(Fingerprint::from_json(R"({"a": 1})"), RuntimeFailure);
    EXPECT_THROW(Fingerprint::from_json("{"), RuntimeFailure);
}

TEST(FingerprintTest, DiffLinesAreExact) {
    Fingerprint before;
    before.values = {{"compiler.version", "gcc 12.2.0"}, {"cpu.cores", "8"}, {"gpu.name", "H100"}, {"os.name", "X"}};
    Fingerprint after;
    after.values = {{"compiler.version", "gcc 13.1.0"}, {"cpu.cores", "8"}, {"gpu.cuda", "12.4"}, {"os.name", "X"}};
    EXPECT_EQ(diff(before, after), (std::vector<std::string>{"compiler.version: gcc 12.2.0 → gcc 13.1.0",
                                                             "gpu.cuda: (absent) → 12.4",
                                                             "gpu.name: H100 → (absent)"}));
    EXPECT_TRUE(diff(before, before).empty());
}

TEST(FingerprintTest, ChangedValuesNameBothSidesOfEveryDifferingKey) {
    std::map<std::string, std::string> recorded{{"a", "1"}, {"b", "2"}, {"c", "3"}};
    std::map<std::string, std::string> now{{"b", "2"}, {"c", "4"}, {"d", "5"}};
    std::vector<ValueChange> changes = changed_values(recorded, now);
    ASSERT_EQ(changes.size(), 3u);
    EXPECT_EQ(changes[0].key, "a");
    EXPECT_EQ(changes[0].after, "(absent)") << "a key the present lacks";
    EXPECT_EQ(changes[1].key, "c");
    EXPECT_EQ(changes[1].before, "3");
    EXPECT_EQ(changes[1].after, "4");
    EXPECT_EQ(changes[2].key, "d");
    EXPECT_EQ(changes[2].before, "(absent)") << "a key present now but not recorded";
    EXPECT_TRUE(changed_values(now, now).empty());
}

TEST(FingerprintTest, RealProbeReadsThisMachine) {
    Spec spec = sample_spec();
    spec.cases.clear();
    auto probe = make_system_probe();
    Fingerprint fingerprint = take_fingerprint(spec, *probe);
    EXPECT_FALSE(fingerprint.values.at("os.kernel").empty());
    EXPECT_FALSE(fingerprint.values.at("os.machine").empty());
    EXPECT_NE(fingerprint.values.at("cpu.cores"), "0");
    if (fingerprint.values.at("compiler.path") != "gcc (not found)") {
        EXPECT_EQ(fingerprint.values.at("compiler.path").front(), '/');
        EXPECT_EQ(fingerprint.values.at("compiler.sha256").size(), 64u);
        EXPECT_FALSE(fingerprint.values.at("compiler.version").empty());
    }
}

}  // namespace
}  // namespace routetune
