#include "util/output_path.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "routetune/error.hpp"
#include "util/bounded_read.hpp"

namespace routetune {

void check_output_path(const std::filesystem::path& path, const std::string& option,
                       const std::function<bool(const std::filesystem::path&)>& is_ours) {
    std::string where = option + " " + path.string();
    if (path.empty() || path.filename().empty() || path.filename() == "." || path.filename() == "..")
        throw UsageError(where + ": give a file path");
    std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    struct stat info {};
    if (stat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        throw UsageError(where + ": the folder " + folder.string() + " does not exist (routetune creates no folder for an output)");
    if (lstat(path.c_str(), &info) != 0) {
        if (errno == ENOENT) return;
        throw UsageError(where + ": cannot examine it: " + std::strerror(errno));
    }
    if (S_ISLNK(info.st_mode)) throw UsageError(where + ": is a symbolic link; routetune does not write through links");
    if (S_ISDIR(info.st_mode)) throw UsageError(where + ": is a folder; give a file path");
    if (!S_ISREG(info.st_mode)) throw UsageError(where + ": is not a regular file (a device, FIFO or socket); refused");
    if (is_ours && !is_ours(path))
        throw UsageError(where + ": exists and was not written by routetune; remove it or choose another path");
}

bool file_starts_with_marker(const std::filesystem::path& file, const std::string& marker) {
    RegularFile opened = open_regular_file(file, O_RDONLY, LinkRule::Refuse, "file");
    if (opened.fd < 0) return false;
    std::string head(64 << 10, '\0');
    ssize_t got = read(opened.fd, head.data(), head.size());
    if (got <= 0) return false;
    head.resize(static_cast<std::size_t>(got));
    return head.find(marker) != std::string::npos;
}

}  // namespace routetune
