// The one-writer rule of a study store: an exclusive flock on "<store>.lock", taken before
// anything reads, creates or moves the store, and held for as long as the store is open for
// writing. The kernel drops it when the writer dies, however it dies. The lock file names its
// holder (pid, host, start time) so a second writer can say who holds the study.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace routetune {

/// Who holds a writer lock, as written in the lock file.
struct LockHolder {
    std::int64_t pid = 0;
    std::string host;
    std::string started_at;        ///< ISO 8601 UTC, when the holder took the lock
    std::uint64_t start_ticks = 0; ///< the holder's process start time (clock ticks since boot)
};

/// The lock file's one line: "pid=N host=H started=T ticks=K\n".
std::string format_lock_holder(const LockHolder& holder);
/// The inverse of format_lock_holder; nullopt for anything malformed (never throws).
std::optional<LockHolder> parse_lock_holder(std::string_view text);

/// An exclusive flock on "<store>.lock"; movable, released on destruction.
class WriterLock {
public:
    WriterLock() = default;
    /// Takes the lock of store (creating the lock file, never following a link); throws
    /// RuntimeFailure naming the holder when another process holds it, UsageError when the
    /// lock path is not a regular file.
    static WriterLock acquire(const std::filesystem::path& store);
    ~WriterLock();
    WriterLock(WriterLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    WriterLock& operator=(WriterLock&& other) noexcept;
    WriterLock(const WriterLock&) = delete;
    WriterLock& operator=(const WriterLock&) = delete;

    /// True while the lock is held.
    bool held() const { return fd_ >= 0; }

private:
    explicit WriterLock(int fd) : fd_(fd) {}
    int fd_ = -1;
};

}  // namespace routetune
