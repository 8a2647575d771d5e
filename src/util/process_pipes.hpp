// Descriptor plumbing for run_process: an owning descriptor, a size-capped non-blocking
// capture of one output stream, a non-blocking stdin feed, and a SIGPIPE guard.
// Internal to process.cpp.
#pragma once

#include <signal.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace routetune::detail {

/// Owns one file descriptor; closes it on reset and destruction.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    /// The descriptor, or -1.
    int get() const { return fd_; }
    /// True while a descriptor is held.
    bool open() const { return fd_ >= 0; }
    /// Closes the held descriptor (if any) and holds fd instead.
    void reset(int fd = -1);

private:
    int fd_ = -1;
};

/// Creates a close-on-exec pipe into read_end / write_end; false (errno set) on failure.
bool make_pipe(Fd& read_end, Fd& write_end);

/// Puts fd in non-blocking mode.
void set_nonblocking(int fd);

/// One captured output stream.
struct Capture {
    Fd fd;                      ///< the non-blocking read end
    std::string* text = nullptr;
    bool* truncated = nullptr;  ///< set once bytes past cap were dropped
    std::size_t cap = 0;
    int sink = -1;              ///< >= 0: bytes go to this file instead of *text
    std::uint64_t limit = 0;    ///< 0: none; else the most bytes the stream may carry
    std::uint64_t total = 0;    ///< bytes read so far
    bool exceeded = false;      ///< set once total passed limit (nothing past it is kept)
    int sink_error = 0;         ///< the errno of a failed write to sink (nothing more is written)

    /// Reads everything available now, keeping up to cap bytes in *text (or writing up to limit
    /// bytes to sink); closes fd at EOF.
    void drain();
    /// Keeps got bytes of buffer as drain() does.
    void keep(const char* buffer, std::size_t got);
};

/// The child's stdin: the rest of the data to write through a non-blocking pipe.
struct StdinFeed {
    Fd fd;
    std::string_view data;

    /// Writes what the pipe accepts now; closes fd when all is written or the child stopped
    /// reading (EPIPE, whose SIGPIPE is consumed).
    void write_some();
};

/// Blocks SIGPIPE in the calling thread for its lifetime, so a write to a closed pipe yields
/// EPIPE instead of killing the tool.
class SigpipeBlock {
public:
    SigpipeBlock();
    SigpipeBlock(const SigpipeBlock&) = delete;
    SigpipeBlock& operator=(const SigpipeBlock&) = delete;
    ~SigpipeBlock();

private:
    sigset_t previous_;
};

}  // namespace routetune::detail
