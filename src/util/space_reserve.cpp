// The reserve is a plain file allocated with posix_fallocate (blocks really taken, not a
// sparse file), opened with O_NOFOLLOW so a link planted at its name is never followed. The
// free space is statvfs's f_bavail (what an unprivileged writer may use). Deleting when less
// than the reserve is free and re-allocating only above twice the reserve keeps the two from
// alternating on every write.
#include "util/space_reserve.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace routetune {

std::int64_t free_bytes(const std::filesystem::path& path) {
    struct statvfs info {};
    std::filesystem::path where = path;
    while (statvfs(where.c_str(), &info) != 0) {
        if (!where.has_parent_path() || where.parent_path() == where) return -1;
        where = where.parent_path();
    }
    return static_cast<std::int64_t>(info.f_bavail) * static_cast<std::int64_t>(info.f_frsize);
}

SpaceReserve::SpaceReserve(std::filesystem::path file, std::uint64_t bytes) : file_(std::move(file)), bytes_(bytes) {
    struct stat info {};
    if (lstat(file_.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) usable_ = false;
    if (usable_) held_ = allocate();
}

SpaceReserve::~SpaceReserve() {
    if (usable_) unlink(file_.c_str());
}

bool SpaceReserve::allocate() {
    int fd = open(file_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) return false;
    bool done = posix_fallocate(fd, 0, static_cast<off_t>(bytes_)) == 0;
    close(fd);
    if (!done) unlink(file_.c_str());
    return done;
}

void SpaceReserve::release() {
    unlink(file_.c_str());
    held_ = false;
}

void SpaceReserve::adjust() {
    if (!usable_) return;
    std::int64_t free = free_bytes(file_.parent_path().empty() ? "." : file_.parent_path());
    if (free < 0) return;
    std::uint64_t available = static_cast<std::uint64_t>(free);
    if (held_ && available < bytes_) release();
    else if (!held_ && available > 2 * bytes_) held_ = allocate();
}

}  // namespace routetune
