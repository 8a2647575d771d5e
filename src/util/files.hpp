// Small file-system and text helpers with no domain knowledge: whole-file read and atomic
// write, scratch folders, quiet tree removal, log tails and UTC timestamps.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace routetune {

/// The file's whole content as bytes; nullopt when it cannot be read (missing, a folder, ...).
std::optional<std::string> read_file(const std::filesystem::path& file);

/// Writes data to file atomically (a temporary file in the same folder, flushed, then renamed
/// over file); false with *error set (when error is non-null) if it failed, leaving file as it was.
bool write_file(const std::filesystem::path& file, std::string_view data, std::string* error = nullptr);

/// Copies source to file the same way (temporary beside file, permission bits kept, fsync'ed,
/// renamed); false with *error set (when error is non-null) if it failed, leaving file as it was.
bool copy_file_atomically(const std::filesystem::path& source, const std::filesystem::path& file,
                          std::string* error = nullptr);

/// Creates a new, empty folder named prefix + a unique suffix inside parent (created if needed);
/// throws RuntimeFailure naming the folder when it cannot.
std::filesystem::path make_scratch_folder(const std::filesystem::path& parent, const std::string& prefix);

/// Creates folder (with its parents) and a probe file in it, removed at once; "" when both
/// worked, else why not (e.g. "Read-only file system").
std::string folder_write_error(const std::filesystem::path& folder);

/// Removes folder and everything below it, ignoring every error; returns how many entries went.
std::uintmax_t remove_tree_quietly(const std::filesystem::path& folder) noexcept;

/// The last max_bytes of text at most, starting at a line start where the window holds a line
/// break; text itself when it fits.
std::string tail_of(std::string_view text, std::size_t max_bytes);

/// "YYYY-MM-DDTHH:MM:SSZ" for the given time (UTC, whole seconds).
std::string iso8601_utc(std::chrono::system_clock::time_point time);

/// iso8601_utc of the current time.
std::string iso8601_utc_now();

}  // namespace routetune
