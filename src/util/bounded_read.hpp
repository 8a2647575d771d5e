// Reading a file with a size cap, the one way routetune reads the files it is given or finds:
// a device (/dev/zero), a FIFO or a runaway file cannot grow routetune's memory without bound
// or block it. Only regular files are read (links followed, unless the caller refuses them, as
// the audit log does); a FIFO or device is refused at once, never opened for a blocking read.
// Files that are streamed rather than read whole (a hashed artifact, the audit log's lines) are
// opened by the same open_regular_file. Each kind of file has its stated limit here; the
// outputs a run leaves and the references they are checked against are bounded by the spec's
// [run] max_output_mb instead, given by the caller.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace routetune {

/// Sizes allowed for the inputs routetune reads (bytes).
inline constexpr std::uint64_t kMaxSpecBytes = 4u << 20;          ///< a spec file
inline constexpr std::uint64_t kMaxExpressionBytes = 1u << 20;    ///< a routes file
inline constexpr std::uint64_t kMaxTuningCacheBytes = 256u << 20; ///< a trtexec tuning cache
inline constexpr std::uint64_t kMaxCatalogBytes = 64u << 20;      ///< a cached knob catalog (JSON)
inline constexpr std::uint64_t kMaxManifestBytes = 16u << 20;     ///< an artifact's manifest, a lock registry
inline constexpr std::uint64_t kMaxStudyFileBytes = 16u << 20;    ///< a study's own small files (wall times, gc journal)
inline constexpr std::uint64_t kMaxSystemFileBytes = 4u << 20;    ///< /proc/cpuinfo, /etc/os-release
inline constexpr std::uint64_t kMaxLockBytes = 16u << 20;         ///< a lock file
inline constexpr std::uint64_t kMaxAuditLineBytes = 16u << 20;    ///< one audit log entry (one line)
inline constexpr std::uint64_t kMaxAuditLogBytes = 512u << 20;    ///< an audit log read whole (`routetune audit`)

/// Whether a symbolic link at the path itself is followed or refused.
enum class LinkRule { Follow, Refuse };

/// A file open_regular_file opened (its descriptor is closed when this is destroyed), or why not.
struct RegularFile {
    int fd = -1;           ///< the open descriptor; -1 when refused
    std::string error;     ///< "<what> '<path>' ...: why" when refused
    bool missing = false;  ///< refused because the file does not exist (ENOENT)
    bool link = false;     ///< refused because it is a symbolic link (LinkRule::Refuse)
    bool irregular = false;  ///< refused because it is a folder, device, FIFO or socket

    /// An unopened file.
    RegularFile() = default;
    /// Takes other's descriptor (other is left unopened).
    RegularFile(RegularFile&& other) noexcept;
    RegularFile& operator=(RegularFile&&) = delete;
    /// Closes the descriptor, if still held.
    ~RegularFile();
    /// Gives the descriptor to the caller, who closes it.
    int release();
};

/// The one way routetune opens a file it reads (or appends to): flags plus O_NONBLOCK and
/// O_CLOEXEC (so opening a FIFO never waits for a writer), O_NOFOLLOW under LinkRule::Refuse,
/// and the descriptor kept only when fstat says it is a regular file; a folder, device, FIFO or
/// socket is refused, named ("... is a FIFO, not a regular file"). mode applies with O_CREAT.
RegularFile open_regular_file(const std::filesystem::path& file, int flags, LinkRule links, const std::string& what,
                              unsigned mode = 0644);

/// The content of one file, or why it could not be read.
struct BoundedRead {
    std::optional<std::string> bytes;  ///< the whole file, when read
    std::string error;                 ///< "<what> '<path>' ...: why" otherwise
    bool missing = false;              ///< the file does not exist (ENOENT)
};

/// The whole content of file when it is a regular file of at most max_bytes (checked before and
/// while reading, so a growing file is refused too); never throws, never blocks on a FIFO.
/// what names the kind of file in the error ("reference", "run output").
BoundedRead read_bounded(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what);

/// The whole content of fd, a regular file open_regular_file opened (read from its start by
/// pread), when it holds at most max_bytes; error named like read_bounded's otherwise. Never throws.
BoundedRead read_bounded_descriptor(int fd, const std::filesystem::path& file, std::uint64_t max_bytes,
                                    const std::string& what);

/// read_bounded's bytes; throws UsageError with its error when the file cannot be read.
std::string read_bounded_file(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what);

/// "4 MiB", "300 KiB" or "12 bytes": a size as the limits above are stated.
std::string size_text(std::uint64_t bytes);

}  // namespace routetune
