// Lines are found with pread in 64 KiB blocks: backwards from a line's end to the newline before
// it (blocks kept in a list and joined once, so a 4 MB line costs 4 MB of copying, not the
// square of it), or forwards from a line start to its newline.
#include "govern/audit_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "routetune/error.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kBlock = 64 << 10;

std::string os_error(const fs::path& file, const char* what) {
    return "audit log " + file.string() + ": " + what + ": " + std::strerror(errno);
}

// Opens file with flags through the one opener (links and anything but a regular file refused);
// -1 when it does not exist.
int open_regular(const fs::path& file, int flags) {
    RegularFile opened = open_regular_file(file, flags, LinkRule::Refuse, "audit log");
    if (opened.fd >= 0) return opened.release();
    if (opened.missing) return -1;
    if (opened.link || opened.irregular) throw UsageError(opened.error);
    throw RuntimeFailure(opened.error);
}

}  // namespace

std::optional<AuditFile> AuditFile::open_to_read(const fs::path& file) {
    int fd = open_regular(file, O_RDONLY);
    if (fd < 0) return std::nullopt;
    return AuditFile(fd, file);
}

AuditFile AuditFile::open_to_append(const fs::path& file) {
    std::error_code ec;
    if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
    int fd = open_regular(file, O_RDWR | O_APPEND | O_CREAT);
    if (fd < 0) throw RuntimeFailure(os_error(file, "cannot create"));
    return AuditFile(fd, file);
}

AuditFile::AuditFile(AuditFile&& other) noexcept : fd_(other.fd_), file_(std::move(other.file_)) { other.fd_ = -1; }

AuditFile::~AuditFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::uint64_t AuditFile::size() const {
    struct stat info {};
    if (fstat(fd_, &info) != 0) throw RuntimeFailure(os_error(file_, "cannot examine"));
    return static_cast<std::uint64_t>(info.st_size);
}

std::string AuditFile::read_at(std::uint64_t offset, std::size_t bytes) const {
    std::string data(bytes, '\0');
    std::size_t done = 0;
    while (done < bytes) {
        ssize_t got = ::pread(fd_, data.data() + done, bytes - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw RuntimeFailure(os_error(file_, "cannot read"));
        if (got == 0) break;
        done += static_cast<std::size_t>(got);
    }
    data.resize(done);
    return data;
}

AuditLine AuditFile::line_ending_at(std::uint64_t end, bool complete) const {
    std::vector<std::string> blocks;
    std::uint64_t start = end;
    std::uint64_t length = 0;
    while (start > 0) {
        std::uint64_t from = start > kBlock ? start - kBlock : 0;
        std::string block = read_at(from, static_cast<std::size_t>(start - from));
        std::size_t newline = block.rfind('\n');
        if (newline != std::string::npos) {
            blocks.push_back(block.substr(newline + 1));
            length += block.size() - newline - 1;
            start = from + newline + 1;
            break;
        }
        length += block.size();
        blocks.push_back(std::move(block));
        start = from;
        if (length > kMaxAuditLineBytes)
            throw RuntimeFailure("audit log " + file_.string() + ": the line ending at byte " + std::to_string(end) +
                                 " is longer than " + std::to_string(kMaxAuditLineBytes >> 20) + " MiB (not an entry routetune wrote)");
    }
    AuditLine line{start, {}, complete};
    line.text.reserve(static_cast<std::size_t>(length));
    for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) line.text += *it;
    return line;
}

std::optional<AuditLine> AuditFile::last_line() const {
    std::uint64_t end = size();
    if (end == 0) return std::nullopt;
    bool complete = read_at(end - 1, 1) == "\n";
    return line_ending_at(complete ? end - 1 : end, complete);
}

bool AuditFile::torn() const {
    std::uint64_t end = size();
    return end > 0 && read_at(end - 1, 1) != "\n";
}

std::optional<AuditLine> AuditFile::line_at(std::uint64_t offset) const {
    std::uint64_t end = size();
    if (offset >= end || (offset > 0 && read_at(offset - 1, 1) != "\n")) return std::nullopt;
    AuditLine line{offset, {}, false};
    for (std::uint64_t at = offset; at < end && line.text.size() <= kMaxAuditLineBytes; at += kBlock) {
        std::string block = read_at(at, kBlock);
        std::size_t newline = block.find('\n');
        line.text += block.substr(0, newline);
        if (newline != std::string::npos) {
            line.complete = true;
            break;
        }
    }
    if (line.text.size() > kMaxAuditLineBytes) return std::nullopt;
    return line;
}

std::optional<AuditLine> AuditFile::line_before(std::uint64_t offset) const {
    if (offset == 0 || offset > size() || read_at(offset - 1, 1) != "\n") return std::nullopt;
    return line_ending_at(offset - 1, true);
}

std::string AuditFile::read_all() const {
    BoundedRead read = read_bounded_descriptor(fd_, file_, kMaxAuditLogBytes, "audit log");
    if (!read.bytes) throw UsageError(read.error);
    return std::move(*read.bytes);
}

std::optional<std::string> read_audit_log(const fs::path& file) {
    std::optional<AuditFile> log = AuditFile::open_to_read(file);
    if (!log) return std::nullopt;
    return log->read_all();
}

}  // namespace routetune
