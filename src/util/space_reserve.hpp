// Disk space held back for a program's own records. A store that shares its disk with the
// programs it measures must still be able to record the evaluation that filled the disk: a
// file of fixed size, allocated up front, is deleted when the disk runs low (so the next
// writes find room) and allocated again once there is room to spare.
#pragma once

#include <cstdint>
#include <filesystem>

namespace routetune {

/// A reserve file: made on construction (best effort), removed on destruction.
class SpaceReserve {
public:
    /// Allocates bytes in file (a regular file routetune owns; a link or anything else there is
    /// left alone and no reserve is held).
    SpaceReserve(std::filesystem::path file, std::uint64_t bytes);
    ~SpaceReserve();
    SpaceReserve(const SpaceReserve&) = delete;
    SpaceReserve& operator=(const SpaceReserve&) = delete;

    /// Before a write: deletes the reserve when its file system has less than its size free;
    /// allocates it again when more than twice its size is free and it was deleted.
    void adjust();
    /// True while the reserve file holds its space.
    bool held() const { return held_; }
    /// The reserve file.
    const std::filesystem::path& file() const { return file_; }

private:
    bool allocate();
    void release();

    std::filesystem::path file_;
    std::uint64_t bytes_;
    bool held_ = false;
    bool usable_ = true;  ///< false when something not ours is at file_
};

/// Bytes an unprivileged process can still write on the file system of path (or of its nearest
/// existing parent); -1 when unknown.
std::int64_t free_bytes(const std::filesystem::path& path);

}  // namespace routetune
