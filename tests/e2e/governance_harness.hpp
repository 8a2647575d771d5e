// What the governance end-to-end tests share: scratch copies of examples/governance (built with
// the real GCC, directly or through a wrapper script the test can change), the entries of an
// audit log, and hand edits of a lock's JSON.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

#include "e2e/cli_harness.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace routetune::e2e {

/// The example's study store, lock and the lock's audit log, relative to its folder.
inline const std::string kStore = ".routetune/governance.sqlite";
inline const std::string kLock = "routetune.lock.json";
inline const std::string kLog = "routetune.lock.json.audit.jsonl";

/// Writes folder/cc-wrapper: gcc under another --version (release version); with a file named
/// slow-route in folder, it builds -O3 as -O0 (its own bytes unchanged, so the gain goes
/// without the fingerprint noticing).
inline void write_wrapper(const fs::path& folder, int version) {
    fs::path wrapper = folder / "cc-wrapper";
    std::string marker = (fs::absolute(folder) / "slow-route").string();
    ASSERT_TRUE(write_file(wrapper, "#!/bin/sh\n# a compiler wrapper, release " + std::to_string(version) +
                                        "\nif [ \"$1\" = --version ]; then\n  gcc --version | sed '1s/^gcc/gcc-wrapper-" +
                                        std::to_string(version) + "/'\n  exit 0\nfi\nif [ -f '" + marker +
                                        "' ]; then\n  for a do shift; [ \"$a\" = -O3 ] && a=-O0; set -- \"$@\" \"$a\"; done\nfi\n"
                                        "exec gcc \"$@\"\n"));
    fs::permissions(wrapper, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
}

/// A scratch copy of examples/governance; with_wrapper: its spec builds with ./cc-wrapper.
inline fs::path scratch_example(bool with_wrapper) {
    fs::path folder = make_scratch_folder(fs::temp_directory_path(), "routetune-governance-") / "governance";
    fs::copy(fs::path(ROUTETUNE_SOURCE_DIR) / "examples" / "governance", folder, fs::copy_options::recursive);
    if (with_wrapper) {
        std::string spec = *read_file(folder / "spec.toml");
        spec.replace(spec.find("path = \"gcc\""), 12, "path = \"./cc-wrapper\"");
        EXPECT_TRUE(write_file(folder / "spec.toml", spec));
        write_wrapper(folder, 1);
    }
    return folder;
}

/// A scratch copy of folder (a promoted example: its lock's paths are relative, so it stays valid).
inline fs::path copy_of(const fs::path& folder) {
    fs::path copy = make_scratch_folder(fs::temp_directory_path(), "routetune-governance-") / folder.filename();
    fs::copy(folder, copy, fs::copy_options::recursive);
    return copy;
}

/// The entries of the audit log at file (lines that are not JSON skipped).
inline std::vector<nlohmann::json> audit_entries(const fs::path& file) {
    std::vector<nlohmann::json> entries;
    std::string text = read_file(file).value_or("");
    for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
        nlohmann::json entry = nlohmann::json::parse(text.substr(start, end - start), nullptr, false);
        if (!entry.is_discarded()) entries.push_back(entry);
    }
    return entries;
}

/// entries as log lines with every hash of the chain recomputed (what a forger who knows the
/// format does after editing entries).
inline std::string rechained(std::vector<nlohmann::json> entries) {
    std::string text, previous;
    for (auto& entry : entries) {
        entry["prev_sha256"] = previous.empty() ? std::string(64, '0') : sha256_hex(previous);
        entry.erase("sha256");
        entry["sha256"] = sha256_hex(entry.dump());
        previous = entry.dump();
        text += previous + "\n";
    }
    return text;
}

/// Edits the lock at file by hand (as JSON, written back with two-space indent).
inline void edit_lock_by_hand(const fs::path& file, const std::function<void(nlohmann::json&)>& edit) {
    nlohmann::json lock = nlohmann::json::parse(*read_file(file));
    edit(lock);
    ASSERT_TRUE(write_file(file, lock.dump(2) + "\n"));
}

}  // namespace routetune::e2e
