// Running a C compiler for discovery: its help texts and tiny test compiles, in the C locale,
// with a timeout, a memory limit for test compiles, and in a scratch folder.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "routetune/catalog.hpp"
#include "util/process.hpp"

namespace routetune {

/// Runs identity.path with args in cwd, LC_ALL=C; with stdin_data (a test compile) 20 s and
/// 4 GiB at most, else 60 s: an extreme value may make the compiler slow or greedy, and such
/// a value counts as rejected.
ProcessResult run_compiler(const CompilerIdentity& identity, const std::vector<std::string>& args,
                           const std::filesystem::path& cwd, const std::string& stdin_data = {});

/// Why result failed, in a few words (spawn error, timeout, signal, or exit code and stderr tail).
std::string describe_failure(const ProcessResult& result);

/// A scratch folder under the system temporary folder, removed with its contents on destruction.
struct ScratchFolder {
    /// A fresh folder named prefix + random characters.
    explicit ScratchFolder(const std::string& prefix);
    /// Removes the folder quietly.
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;

    std::filesystem::path path;  ///< the folder
};

}  // namespace routetune
