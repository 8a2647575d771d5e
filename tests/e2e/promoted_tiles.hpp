// tests/fixtures/tiles tuned and its route "-O=3 -tile=16" (flags -O3 AND the environment value
// TILE=16) promoted to routetune.lock.json with the real GCC, once per test program; each test
// takes its own copy of that folder, so none sees another's edits.
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {

/// The route the tiles lock holds.
inline const std::string kTilesRoute = "-O=3 -tile=16";

/// The promoted folder (tuned once, promoted once); tests copy it, never edit it.
inline const fs::path& promoted_tiles_original() {
    static const fs::path folder = [] {
        fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-tiles-") / "tiles";
        fs::copy(fs::path(ROUTETUNE_FIXTURES) / "tiles", dir, fs::copy_options::recursive);
        CliResult tuned = run_cli({"tune", "spec.toml"}, dir);
        EXPECT_EQ(tuned.exit_code, 0) << tuned.out << tuned.err;
        CliResult promoted = run_cli({"promote", ".routetune/tiles.sqlite", "--route", kTilesRoute, "--lock",
                                      "routetune.lock.json", "--owner", "ci", "--reason", "tiles of 16"},
                                     dir);
        EXPECT_EQ(promoted.exit_code, 0) << promoted.out << promoted.err;
        return dir;
    }();
    return folder;
}

/// A fresh copy of the promoted tiles folder.
inline fs::path promoted_tiles() {
    fs::path copy = make_scratch_folder(fs::temp_directory_path(), "routetune-tiles-copy-") / "tiles";
    fs::copy(promoted_tiles_original(), copy, fs::copy_options::recursive);
    return copy;
}

/// The JSON object of text (null when it is not JSON).
inline nlohmann::json json_of(const std::string& text) { return nlohmann::json::parse(text, nullptr, false); }

/// The fields of a verify --json answer's differences.
inline std::set<std::string> difference_fields(const std::string& verify_json) {
    std::set<std::string> fields;
    nlohmann::json answer = json_of(verify_json);
    if (answer.is_object() && answer.contains("differences"))
        for (const auto& d : answer["differences"]) fields.insert(d.at("field").get<std::string>());
    return fields;
}

/// The last entry of an audit log (null when there is none).
inline nlohmann::json last_audit_entry(const fs::path& log) {
    std::string text = read_file(log).value_or("");
    std::size_t end = text.find_last_not_of('\n');
    if (end == std::string::npos) return nullptr;
    std::size_t start = text.rfind('\n', end);
    return json_of(text.substr(start == std::string::npos ? 0 : start + 1, end + 1 - (start == std::string::npos ? 0 : start + 1)));
}

}  // namespace routetune::e2e
