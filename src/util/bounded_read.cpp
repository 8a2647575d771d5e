// open_regular_file opens with O_NONBLOCK (so opening a FIFO never waits for a writer), adds
// O_NOFOLLOW when links are refused, and fstat's the descriptor before anything is read: only a
// regular file goes on. read_bounded checks the size twice: by fstat, then by reading at most
// max_bytes + 1 bytes into a buffer reserved at the stated size (so a file that grows while it
// is read is refused too, and memory is allocated once). A failed allocation is an error naming
// the file, not a std::bad_alloc.
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

std::string file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder, not a regular file";
    if (S_ISFIFO(mode)) return "a FIFO, not a regular file";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device, not a regular file";
    if (S_ISSOCK(mode)) return "a socket, not a regular file";
    return "not a regular file";
}

std::string named(const std::string& what, const std::filesystem::path& file) { return what + " '" + file.string() + "'"; }

}  // namespace

RegularFile::RegularFile(RegularFile&& other) noexcept
    : fd(other.fd), error(std::move(other.error)), missing(other.missing), link(other.link), irregular(other.irregular) {
    other.fd = -1;
}

RegularFile::~RegularFile() {
    if (fd >= 0) close(fd);
}

int RegularFile::release() {
    int held = fd;
    fd = -1;
    return held;
}

RegularFile open_regular_file(const std::filesystem::path& file, int flags, LinkRule links, const std::string& what,
                              unsigned mode) {
    RegularFile opened;
    int extra = O_NONBLOCK | O_CLOEXEC | (links == LinkRule::Refuse ? O_NOFOLLOW : 0);
    int fd = open(file.c_str(), flags | extra, static_cast<mode_t>(mode));
    if (fd < 0) {
        opened.missing = errno == ENOENT;
        opened.link = errno == ELOOP && links == LinkRule::Refuse;
        opened.error = opened.link ? named(what, file) + " is a symbolic link; routetune neither reads nor writes through links"
                                   : "cannot read " + named(what, file) + ": " + std::strerror(errno);
        return opened;
    }
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        opened.irregular = true;
        opened.error = named(what, file) + " is " + file_kind(info.st_mode) + "; refused";
        return opened;
    }
    opened.fd = fd;
    return opened;
}

std::string size_text(std::uint64_t bytes) {
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
    return std::to_string(bytes) + " bytes";
}

BoundedRead read_bounded_descriptor(int fd, const std::filesystem::path& file, std::uint64_t max_bytes,
                                    const std::string& what) {
    BoundedRead result;
    auto too_large = [&] {
        result.error = named(what, file) + " is larger than " + size_text(max_bytes) + " (the most routetune reads of a " + what + ")";
        return result;
    };
    struct stat info {};
    if (fstat(fd, &info) != 0) {
        result.error = "cannot read " + named(what, file) + ": " + std::strerror(errno);
        return result;
    }
    if (static_cast<std::uint64_t>(info.st_size) > max_bytes) return too_large();
    std::string text;
    try {
        text.reserve(static_cast<std::size_t>(info.st_size));
        char buffer[65536];
        while (true) {
            ssize_t got = pread(fd, buffer, sizeof buffer, static_cast<off_t>(text.size()));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) {
                result.error = "cannot read " + named(what, file) + ": " + std::strerror(errno);
                return result;
            }
            if (got == 0) break;
            if (text.size() + static_cast<std::size_t>(got) > max_bytes) return too_large();
            text.append(buffer, static_cast<std::size_t>(got));
        }
    } catch (const std::bad_alloc&) {
        result.error = "not enough memory to read " + named(what, file) + " (" +
                       size_text(static_cast<std::uint64_t>(info.st_size)) + ")";
        return result;
    }
    result.bytes = std::move(text);
    return result;
}

BoundedRead read_bounded(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what) {
    RegularFile opened = open_regular_file(file, O_RDONLY, LinkRule::Follow, what);
    if (opened.fd < 0) return BoundedRead{std::nullopt, opened.error, opened.missing};
    return read_bounded_descriptor(opened.fd, file, max_bytes, what);
}

std::string read_bounded_file(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what) {
    BoundedRead read = read_bounded(file, max_bytes, what);
    if (!read.bytes) throw UsageError(read.error);
    return std::move(*read.bytes);
}

}  // namespace routetune
