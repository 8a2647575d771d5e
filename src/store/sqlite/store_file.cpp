// The SQLite file format starts with "SQLite format 3\0" and keeps the application id as a
// big-endian 32-bit number at offset 68 (https://www.sqlite.org/fileformat.html). A new store is
// given routetune's id in the same step that creates its first table, while still in rollback
// journal mode, so every store routetune ever wrote carries the id in its main file. Renames use
// renameat2(RENAME_NOREPLACE): a clash is an error, never a silent replacement. A new store is
// built whole under another name and renamed into place: SQLite creating it in place costs two
// rollback-journal commits (the schema, the switch to WAL) of four syncs each, where two syncs
// (the file, then its folder) make the finished file durable.
#include "store/sqlite/store_file.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "routetune/error.hpp"
#include "store/sqlite/sqlite_db.hpp"
#include "store/sqlite/store_schema.hpp"
#include "util/files.hpp"

namespace routetune {

namespace {

constexpr char kSqliteMagic[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f', 'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};

std::string refusal(const std::filesystem::path& path, const std::string& what) {
    return path.string() + ": " + what + "; routetune keeps studies only in its own SQLite files and leaves this one alone";
}

std::string stamp() {
    std::string text = iso8601_utc_now();
    for (char& c : text) {
        if (c == ':') c = '-';
    }
    return text;
}

bool exists(const std::filesystem::path& path) {
    struct stat info {};
    return lstat(path.c_str(), &info) == 0;
}

// fsync of a file (or, with folder, of a folder's entries); throws RuntimeFailure.
void sync_path(const std::filesystem::path& path, bool folder) {
    int fd = open(path.c_str(), (folder ? O_RDONLY | O_DIRECTORY : O_RDWR) | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 || fsync(fd) != 0) {
        std::string reason = std::strerror(errno);
        if (fd >= 0) close(fd);
        throw RuntimeFailure(path.string() + ": cannot sync the new study store: " + reason);
    }
    close(fd);
}

// Removes what an interrupted create_store_file left (only files that are routetune's own).
void remove_leftover(const std::filesystem::path& building) {
    for (const char* extra : {"-journal", "-wal", "-shm"}) std::filesystem::remove(building.string() + extra);
    if (check_store_file(building) != StoreFile::Absent) std::filesystem::remove(building);
}

}  // namespace

bool create_store_file(const std::filesystem::path& path) {
    if (exists(path.string() + "-wal") || exists(path.string() + "-shm")) return false;
    std::filesystem::path building = path.string() + ".creating";
    remove_leftover(building);
    try {
        {
            SqliteDb db(building, false, true, false);
            db.exec("PRAGMA synchronous = OFF");
            prepare_store_schema(db, false);
            db.exec("PRAGMA journal_mode = WAL");
        }
        sync_path(building, false);
        if (renameat2(AT_FDCWD, building.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0)
            throw RuntimeFailure(path.string() + ": cannot put the new study store in place: " + std::strerror(errno));
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(building, ignored);
        throw;
    }
    sync_path(path.has_parent_path() ? path.parent_path() : std::filesystem::path("."), true);
    return true;
}

StoreFile check_store_file(const std::filesystem::path& path) {
    struct stat info {};
    if (lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT) return StoreFile::Absent;
        throw RuntimeFailure(path.string() + ": cannot examine the study store: " + std::strerror(errno));
    }
    if (S_ISLNK(info.st_mode)) throw UsageError(refusal(path, "is a symbolic link (give the store's own path)"));
    if (S_ISDIR(info.st_mode)) throw UsageError(path.string() + ": is a folder, not a study store");
    if (!S_ISREG(info.st_mode)) throw UsageError(refusal(path, "is not a regular file (a device, FIFO or socket)"));
    if (info.st_size == 0) return StoreFile::Empty;
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) throw RuntimeFailure(path.string() + ": cannot read the study store: " + std::strerror(errno));
    unsigned char header[100] = {};
    ssize_t got = pread(fd, header, sizeof header, 0);
    close(fd);
    if (got < static_cast<ssize_t>(sizeof header) || std::memcmp(header, kSqliteMagic, sizeof kSqliteMagic) != 0)
        throw UsageError(refusal(path, "is not a routetune study store (not an SQLite database)"));
    std::uint32_t id = (std::uint32_t{header[68]} << 24) | (std::uint32_t{header[69]} << 16) |
                       (std::uint32_t{header[70]} << 8) | std::uint32_t{header[71]};
    if (id != static_cast<std::uint32_t>(kStoreApplicationId))
        throw UsageError(refusal(path, "is not a routetune study store (an SQLite database of another application)"));
    return StoreFile::Routetune;
}

std::string move_store_aside(const std::filesystem::path& path, bool include_store,
                      const std::vector<std::filesystem::path>& companions) {
    std::string suffix = stamp();
    suffix = "." + suffix + ".old";
    std::vector<std::filesystem::path> files;
    if (include_store) {
        for (const char* extra : {"", "-wal", "-shm"}) files.emplace_back(path.string() + extra);
    }
    files.insert(files.end(), companions.begin(), companions.end());
    std::string moved_store;
    for (const auto& file : files) {
        struct stat info {};
        if (lstat(file.c_str(), &info) != 0) continue;
        std::string target = file.string() + suffix;
        if (renameat2(AT_FDCWD, file.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) != 0) {
            throw RuntimeFailure("cannot move the earlier study aside: " + file.string() + " -> " + target + ": " +
                                 std::strerror(errno));
        }
        if (include_store && file == path) moved_store = target;
    }
    return moved_store;
}

}  // namespace routetune
