// A SystemProbe whose machine is a few maps: files by path, programs on PATH, the output of
// each argv; it records every argv it ran. machine_without_gpu() is a Debian host with gcc 12.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/fingerprint.hpp"
#include "util/sha256.hpp"

namespace routetune {

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

inline const char* kCpuinfo =
    "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6338\n"
    "flags\t\t: fpu vme sse sse2 avx2\n\nprocessor\t: 1\nmodel name\t: Intel(R) Xeon(R) Gold 6338\n"
    "flags\t\t: fpu vme sse sse2 avx2\n";

inline FakeProbe machine_without_gpu() {
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

}  // namespace routetune
