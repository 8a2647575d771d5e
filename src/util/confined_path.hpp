// Confinement of the files a spec names to the spec's own folder: a path written relative to
// the folder must stay inside it, both as written (no ".." out of it) and once every symbolic
// link on its way is followed, so a data file that is a link to /etc/shadow is refused rather
// than read, hashed or quoted.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace routetune {

/// True when path (lexically normal, absolute) is folder itself or below it, compared as
/// written (no link is followed).
bool lies_within(const std::filesystem::path& folder, const std::filesystem::path& path);

/// Why file (absolute) is not inside folder's tree: it lies outside folder as written, or a
/// symbolic link on its way leads out of folder (the message names where to); nullopt when it
/// stays inside. A file that does not exist yet is judged by the part of its path that does.
std::optional<std::string> outside_folder(const std::filesystem::path& folder, const std::filesystem::path& file);

}  // namespace routetune
