// The file is opened with O_NONBLOCK (so opening a FIFO never waits for a writer) and fstat'ed
// before anything is read: only a regular file goes on. Its size is checked twice: by fstat,
// then by reading at most max_bytes + 1 bytes into a buffer reserved at the stated size (so a
// file that grows while it is read is refused too, and memory is allocated once). A failed
// allocation is an error naming the file, not a std::bad_alloc.
#include "util/bounded_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "routetune/error.hpp"

namespace routetune {

namespace {

// Closes a descriptor when it goes out of scope.
struct FdCloser {
    int fd;
    ~FdCloser() {
        if (fd >= 0) close(fd);
    }
};

std::string file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace

std::string size_text(std::uint64_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

BoundedRead read_bounded(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what) {
    BoundedRead result;
    std::string named = what + " '" + file.string() + "'";
    auto too_large = [&] {
        result.error = named + " is larger than " + size_text(max_bytes) + " (the most routetune reads of a " + what + ")";
        return result;
    };
    FdCloser fd{open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (fd.fd < 0) {
        result.missing = errno == ENOENT;
        result.error = "cannot read " + named + ": " + std::strerror(errno);
        return result;
    }
    struct stat info {};
    if (fstat(fd.fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        result.error = named + " is " + file_kind(info.st_mode) + "; only a regular file is read";
        return result;
    }
    if (static_cast<std::uint64_t>(info.st_size) > max_bytes) return too_large();
    std::string text;
    try {
        text.reserve(static_cast<std::size_t>(info.st_size));
        char buffer[65536];
        while (true) {
            ssize_t got = read(fd.fd, buffer, sizeof buffer);
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) {
                result.error = "cannot read " + named + ": " + std::strerror(errno);
                return result;
            }
            if (got == 0) break;
            if (text.size() + static_cast<std::size_t>(got) > max_bytes) return too_large();
            text.append(buffer, static_cast<std::size_t>(got));
        }
    } catch (const std::bad_alloc&) {
        result.error = "not enough memory to read " + named + " (" + size_text(static_cast<std::uint64_t>(info.st_size)) + ")";
        return result;
    }
    result.bytes = std::move(text);
    return result;
}

std::string read_bounded_file(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what) {
    BoundedRead read = read_bounded(file, max_bytes, what);
    if (!read.bytes) throw UsageError(read.error);
    return std::move(*read.bytes);
}

}  // namespace routetune
