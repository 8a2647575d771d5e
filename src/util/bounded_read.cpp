// The size is checked twice: by fstat before reading, and by reading at most max_bytes + 1
// bytes, so a file that grows while it is read is refused too.
#include "util/bounded_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "routetune/error.hpp"

namespace routetune {

std::string read_bounded_file(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what) {
    auto too_large = [&] {
        return UsageError(what + " '" + file.string() + "' is larger than " + std::to_string(max_bytes >> 10) +
                          " KiB (the most routetune reads)");
    };
    int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw UsageError("cannot read " + what + " '" + file.string() + "': " + std::strerror(errno));
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        close(fd);
        throw UsageError(what + " '" + file.string() + "' is not a regular file");
    }
    if (static_cast<std::uint64_t>(info.st_size) > max_bytes) {
        close(fd);
        throw too_large();
    }
    std::string text;
    char buffer[65536];
    while (true) {
        ssize_t got = read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            std::string reason = std::strerror(errno);
            close(fd);
            throw UsageError("cannot read " + what + " '" + file.string() + "': " + reason);
        }
        if (got == 0) break;
        text.append(buffer, static_cast<std::size_t>(got));
        if (text.size() > max_bytes) {
            close(fd);
            throw too_large();
        }
    }
    close(fd);
    return text;
}

}  // namespace routetune
