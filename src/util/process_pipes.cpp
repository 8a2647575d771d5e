#include "util/process_pipes.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <ctime>

namespace routetune::detail {

void Fd::reset(int fd) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
}

bool make_pipe(Fd& read_end, Fd& write_end) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
    return true;
}

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

void Capture::drain() {
    char buffer[65536];
    while (fd.open()) {
        ssize_t got = read(fd.get(), buffer, sizeof buffer);
        if (got > 0) {
            keep(buffer, static_cast<std::size_t>(got));
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            fd.reset();
        }
    }
}

void Capture::keep(const char* buffer, std::size_t got) {
    std::uint64_t allowed = got;
    if (limit > 0 && total + got > limit) {
        allowed = total < limit ? limit - total : 0;
        exceeded = true;
    }
    total += got;
    if (sink >= 0) {
        for (std::size_t done = 0; done < allowed && sink_error == 0;) {
            ssize_t put = write(sink, buffer + done, static_cast<std::size_t>(allowed) - done);
            if (put < 0 && errno == EINTR) continue;
            if (put <= 0) {
                sink_error = put < 0 ? errno : ENOSPC;
                *truncated = true;
                return;
            }
            done += static_cast<std::size_t>(put);
        }
        if (allowed < got) *truncated = true;
        return;
    }
    std::size_t room = cap > text->size() ? cap - text->size() : 0;
    std::size_t kept = std::min<std::size_t>(room, static_cast<std::size_t>(allowed));
    text->append(buffer, kept);
    if (kept < got) *truncated = true;
}

void StdinFeed::write_some() {
    while (fd.open() && !data.empty()) {
        ssize_t put = write(fd.get(), data.data(), std::min<std::size_t>(data.size(), 65536));
        if (put > 0) {
            data.remove_prefix(static_cast<std::size_t>(put));
        } else if (put < 0 && errno == EINTR) {
            continue;
        } else if (put < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            if (errno == EPIPE) {
                sigset_t pipe_only;
                sigemptyset(&pipe_only);
                sigaddset(&pipe_only, SIGPIPE);
                timespec zero{};
                sigtimedwait(&pipe_only, nullptr, &zero);
            }
            break;
        }
    }
    fd.reset();
}

SigpipeBlock::SigpipeBlock() {
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous_);
}

SigpipeBlock::~SigpipeBlock() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

}  // namespace routetune::detail
