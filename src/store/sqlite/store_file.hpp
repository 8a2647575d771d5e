// What is at a store's path, decided from the file itself before SQLite touches it: nothing,
// an empty file, or a routetune store (SQLite's 100-byte header with application_id "RTST").
// Anything else (a link, a device, a folder, another program's file or database) is refused,
// so routetune never opens, converts, renames or replaces a file that is not its own.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace routetune {

/// What check_store_file found.
enum class StoreFile { Absent, Empty, Routetune };

/// Classifies path (never following a link); throws UsageError for a symbolic link, a
/// non-regular file, a file that is not an SQLite database and a database of another application.
StoreFile check_store_file(const std::filesystem::path& path);

/// Creates a new store at path, where nothing is (nor its -wal or -shm), in one piece: built
/// as "<path>.creating" without any sync (schema, application id, WAL mode), then fsync'ed,
/// renamed into place (never over a file) and the folder fsync'ed, so a crash leaves either no
/// store or a whole empty one. Returns false, creating nothing, when a -wal or -shm is there.
bool create_store_file(const std::filesystem::path& path);

/// Renames the store at path (when include_store), its -wal and -shm, and each companion that
/// exists to "<name>.<UTC time>.old", never over an existing file; throws RuntimeFailure when a
/// rename fails (what was renamed before stays renamed, under the same suffix). Returns the
/// store's new name, or "" when no store was moved.
std::string move_store_aside(const std::filesystem::path& path, bool include_store,
                      const std::vector<std::filesystem::path>& companions);

}  // namespace routetune
