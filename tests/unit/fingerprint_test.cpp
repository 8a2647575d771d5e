// The environment fingerprint: exact keys and values from a fake probe, the JSON round trip,
// and the exact lines of a diff.
#include <gtest/gtest.h>

#include "eval/fingerprint.hpp"
#include "routetune/error.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

class FakeProbe : public SystemProbe {
public:
    std::map<std::string, std::string> files;
    std::map<std::string, std::string> programs;               ///< name -> absolute path
    std::map<std::vector<std::string>, std::string> outputs;   ///< argv -> output
    std::vector<std::vector<std::string>> ran;

    std::optional<std::string> read_file(const std::filesystem::path& file) override {
        auto it = files.find(file.string());
        if (it == files.end()) return std::nullopt;
        return it->second;
    }
    std::optional<std::string> file_sha256(const std::filesystem::path& file) override {
        auto text = read_file(file);
        if (!text) return std::nullopt;
        return sha256_hex(*text);
    }
    std::filesystem::path find_executable(const std::string& program) override {
        auto it = programs.find(program);
        return it == programs.end() ? std::filesystem::path() : std::filesystem::path(it->second);
    }
    std::optional<std::string> run(const std::vector<std::string>& argv) override {
        ran.push_back(argv);
        auto it = outputs.find(argv);
        if (it == outputs.end()) return std::nullopt;
        return it->second;
    }
    std::string kernel_release() override { return "6.1.0-18-amd64"; }
    std::string machine() override { return "x86_64"; }
};

const char* kCpuinfo =
    "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6338\n"
    "flags\t\t: fpu vme sse sse2 avx2\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Gold 6338\n"
    "flags\t\t: fpu vme sse sse2 avx2\n";

FakeProbe machine_without_gpu() {
    FakeProbe probe;
    probe.files["/proc/cpuinfo"] = kCpuinfo;
    probe.files["/etc/os-release"] = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n";
    probe.files["/usr/bin/gcc-12"] = "ELF gcc bytes";
    probe.files["/data/a.in"] = "1 2 3";
    probe.files["/data/a.out"] = "6";
    probe.programs["gcc"] = "/usr/bin/gcc-12";
    probe.outputs[{"/usr/bin/gcc-12", "--version"}] =
        "\ngcc (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022 Free Software Foundation, Inc.\n";
    return probe;
}

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
