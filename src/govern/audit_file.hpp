// The audit log's file, opened and read under the rules every command shares: never through a
// symbolic link, never a device, FIFO or folder (util/bounded_read.hpp's open_regular_file, the
// one opener of files routetune reads), reads bounded per line and per log (kMaxAuditLineBytes,
// kMaxAuditLogBytes, stated there with the other limits), and the last line found by reading backwards from the end, so
// finding it costs the length of that line, not of the log.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "util/bounded_read.hpp"

namespace routetune {

/// One line of the log, without its newline.
struct AuditLine {
    std::uint64_t offset = 0;  ///< where it starts
    std::string text;
    bool complete = true;      ///< false: the file ends inside it (a torn line)
};

/// An open audit log; closes its descriptor when destroyed.
class AuditFile {
public:
    /// Opens file to read; nullopt when it does not exist; UsageError naming file when it is a
    /// symbolic link or not a regular file; RuntimeFailure for other errors.
    static std::optional<AuditFile> open_to_read(const std::filesystem::path& file);

    /// Opens file to append (created 0644 when absent, O_APPEND), with the same refusals.
    static AuditFile open_to_append(const std::filesystem::path& file);

    /// Takes other's descriptor (other is left closed).
    AuditFile(AuditFile&& other) noexcept;
    AuditFile& operator=(AuditFile&&) = delete;
    /// Closes the descriptor.
    ~AuditFile();

    /// The descriptor (for flock and write).
    int fd() const { return fd_; }

    /// The file's size now.
    std::uint64_t size() const;

    /// The last line (empty lines at the end skipped only when the file ends with a newline);
    /// nullopt for an empty file; RuntimeFailure when it is longer than kMaxAuditLineBytes.
    std::optional<AuditLine> last_line() const;

    /// True when the file does not end with a newline (its last line is torn); one byte read.
    bool torn() const;

    /// The line starting at offset: nullopt when offset is past the end or not a line start.
    std::optional<AuditLine> line_at(std::uint64_t offset) const;

    /// The line that ends just before offset (offset a line start after the first line).
    std::optional<AuditLine> line_before(std::uint64_t offset) const;

    /// The whole file; UsageError when it is larger than kMaxAuditLogBytes.
    std::string read_all() const;

private:
    AuditFile(int fd, std::filesystem::path file) : fd_(fd), file_(std::move(file)) {}
    /// Up to bytes bytes at offset (fewer at the end of the file).
    std::string read_at(std::uint64_t offset, std::size_t bytes) const;
    /// The line whose last byte is just before end, read backwards.
    AuditLine line_ending_at(std::uint64_t end, bool complete) const;

    int fd_ = -1;
    std::filesystem::path file_;
};

/// The whole audit log at file (AuditFile::read_all); nullopt when it does not exist; throws as
/// AuditFile does for a link, a file that is not regular, or one too large.
std::optional<std::string> read_audit_log(const std::filesystem::path& file);

}  // namespace routetune
