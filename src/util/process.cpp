// run_process: the child is forked into its own process group (child_launch.cpp), its stdout
// and stderr come back through non-blocking close-on-exec pipes, and one poll() loop writes
// stdin, drains both pipes (keeping the first output_cap bytes, reading on past the cap so the
// child never blocks) and watches the child through a pidfd (or a 10 ms tick where pidfds are
// unavailable). The child's exit is detected without reaping it (waitid WNOWAIT), so its pid
// stays reserved while the whole group gets SIGKILL: background grandchildren die with it,
// and the loop never waits for a grandchild that still holds a pipe open. Only then is the
// group unregistered, the child reaped, and what is left in the pipes read without blocking.
// A timeout kills the group the same way. Live groups sit in a mutex-protected registry so
// kill_running_processes() can end them all.
#include "util/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>

#include "util/child_launch.hpp"

namespace routetune {
namespace {

using SteadyClock = std::chrono::steady_clock;

std::mutex registry_mutex;

std::set<pid_t>& live_groups() {
    static std::set<pid_t> groups;
    return groups;
}

void register_group(pid_t pgid) {
    std::lock_guard lock(registry_mutex);
    live_groups().insert(pgid);
}

void unregister_group(pid_t pgid) {
    std::lock_guard lock(registry_mutex);
    live_groups().erase(pgid);
}

/// Owns one file descriptor.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd() { reset(); }
    int get() const { return fd_; }
    bool open() const { return fd_ >= 0; }
    void reset(int fd = -1) {
        if (fd_ >= 0) close(fd_);
        fd_ = fd;
    }

private:
    int fd_ = -1;
};

bool make_pipe(Fd& read_end, Fd& write_end) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read_end.reset(fds[0]);
    write_end.reset(fds[1]);
    return true;
}

void set_nonblocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

/// One captured stream: reads until EOF (closing the descriptor) or until nothing is ready.
struct Capture {
    Fd fd;
    std::string* text = nullptr;
    bool* truncated = nullptr;
    std::size_t cap = 0;

    void drain() {
        char buffer[65536];
        while (fd.open()) {
            ssize_t got = read(fd.get(), buffer, sizeof buffer);
            if (got > 0) {
                std::size_t room = cap > text->size() ? cap - text->size() : 0;
                std::size_t keep = std::min(room, static_cast<std::size_t>(got));
                text->append(buffer, keep);
                if (keep < static_cast<std::size_t>(got)) *truncated = true;
            } else if (got < 0 && errno == EINTR) {
                continue;
            } else if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                return;
            } else {
                fd.reset();
            }
        }
    }
};

/// Writes the rest of data to the child's stdin without blocking; closes it when done or
/// when the child stopped reading. SIGPIPE is blocked in this thread meanwhile.
struct StdinFeed {
    Fd fd;
    std::string_view data;

    void write_some() {
        while (fd.open() && !data.empty()) {
            ssize_t put = write(fd.get(), data.data(), std::min<std::size_t>(data.size(), 65536));
            if (put > 0) {
                data.remove_prefix(static_cast<std::size_t>(put));
            } else if (put < 0 && errno == EINTR) {
                continue;
            } else if (put < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                return;
            } else {
                if (errno == EPIPE) consume_pending_sigpipe();
                break;
            }
        }
        fd.reset();
    }

    static void consume_pending_sigpipe() {
        sigset_t pipe_only;
        sigemptyset(&pipe_only);
        sigaddset(&pipe_only, SIGPIPE);
        timespec zero{};
        sigtimedwait(&pipe_only, nullptr, &zero);
    }
};

/// Blocks SIGPIPE in the calling thread for its lifetime, so writing to a closed stdin pipe
/// yields EPIPE instead of killing the tool.
class SigpipeBlock {
public:
    SigpipeBlock() {
        sigset_t pipe_only;
        sigemptyset(&pipe_only);
        sigaddset(&pipe_only, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe_only, &previous_);
    }
    SigpipeBlock(const SigpipeBlock&) = delete;
    SigpipeBlock& operator=(const SigpipeBlock&) = delete;
    ~SigpipeBlock() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

private:
    sigset_t previous_;
};

bool is_executable_file(const std::filesystem::path& candidate) {
    struct stat info;
    return stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
           access(candidate.c_str(), X_OK) == 0;
}

std::filesystem::path search_path(const std::string& program, const char* path_variable) {
    std::string_view path = path_variable != nullptr ? path_variable : "/usr/local/bin:/usr/bin:/bin";
    while (true) {
        std::size_t colon = path.find(':');
        std::string_view folder = path.substr(0, colon);
        std::filesystem::path candidate =
            folder.empty() ? std::filesystem::path(program) : std::filesystem::path(folder) / program;
        if (is_executable_file(candidate)) return std::filesystem::absolute(candidate);
        if (colon == std::string_view::npos) return {};
        path.remove_prefix(colon + 1);
    }
}

int open_pidfd(pid_t pid) {
#ifdef SYS_pidfd_open
    return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
    (void)pid;
    return -1;
#endif
}

bool has_exited(pid_t pid, bool wait) {
    siginfo_t info{};
    int options = WEXITED | WNOWAIT | (wait ? 0 : WNOHANG);
    while (waitid(P_PID, static_cast<id_t>(pid), &info, options) != 0) {
        if (errno != EINTR) return true;
    }
    return info.si_pid == pid;
}

ProcessResult spawn_failure(std::string error) {
    ProcessResult result;
    result.outcome = ProcessOutcome::SpawnFailed;
    result.error = std::move(error);
    return result;
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) {
    if (spec.argv.empty() || spec.argv[0].empty()) return spawn_failure("empty command");
    detail::LaunchPlan plan;
    plan.argv = spec.argv;
    plan.envp = detail::merged_environment(spec.env);
    plan.cwd = spec.cwd.string();
    plan.memory_limit_bytes = spec.memory_limit_bytes;
    plan.program = spec.argv[0];
    if (plan.program.find('/') == std::string::npos) {
        auto overlay_path = spec.env.find("PATH");
        const char* path = overlay_path != spec.env.end() ? overlay_path->second.c_str() : std::getenv("PATH");
        std::filesystem::path found = search_path(plan.program, path);
        if (found.empty()) return spawn_failure("program '" + plan.program + "' not found on PATH");
        plan.program = found.string();
    }

    ProcessResult result;
    StdinFeed feed;
    Fd child_stdin, child_stdout, child_stderr;
    Capture out, err;
    if (spec.stdin_data.empty()) {
        child_stdin.reset(open("/dev/null", O_RDONLY | O_CLOEXEC));
    } else if (make_pipe(child_stdin, feed.fd)) {
        feed.data = spec.stdin_data;
        set_nonblocking(feed.fd.get());
    }
    if (!spec.stdout_file.empty()) {
        child_stdout.reset(open(spec.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
        if (!child_stdout.open())
            return spawn_failure("cannot open '" + spec.stdout_file.string() + "' for the output: " +
                                 std::strerror(errno));
    } else {
        make_pipe(out.fd, child_stdout);
    }
    make_pipe(err.fd, child_stderr);
    if (!child_stdin.open() || !child_stdout.open() || !child_stderr.open())
        return spawn_failure(std::string("cannot create the child's pipes: ") + std::strerror(errno));
    plan.stdin_fd = child_stdin.get();
    plan.stdout_fd = child_stdout.get();
    plan.stderr_fd = child_stderr.get();
    out.text = &result.out;
    out.truncated = &result.out_truncated;
    out.cap = spec.output_cap;
    err.text = &result.err;
    err.truncated = &result.err_truncated;
    err.cap = spec.output_cap;

    SigpipeBlock sigpipe_block;
    SteadyClock::time_point start = SteadyClock::now();
    detail::Launched launched = detail::launch_child(plan, register_group);
    child_stdin.reset();
    child_stdout.reset();
    child_stderr.reset();
    if (launched.pid < 0) return spawn_failure(launched.error);
    pid_t pid = launched.pid;
    if (!launched.error.empty()) {
        unregister_group(pid);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return spawn_failure(launched.error);
    }

    Fd pidfd(open_pidfd(pid));
    if (out.fd.open()) set_nonblocking(out.fd.get());
    set_nonblocking(err.fd.get());
    std::optional<SteadyClock::time_point> deadline;
    if (spec.timeout_s > 0)
        deadline = start + std::chrono::duration_cast<SteadyClock::duration>(
                               std::chrono::duration<double>(spec.timeout_s));
    bool timed_out = false;
    SteadyClock::time_point end;
    while (true) {
        if (has_exited(pid, false)) {
            end = SteadyClock::now();
            break;
        }
        SteadyClock::time_point now = SteadyClock::now();
        if (deadline && now >= *deadline) {
            kill(-pid, SIGKILL);
            timed_out = true;
            has_exited(pid, true);
            end = SteadyClock::now();
            break;
        }
        pollfd fds[4];
        nfds_t count = 0;
        auto watch = [&](int fd, short events) { fds[count++] = pollfd{fd, events, 0}; };
        if (out.fd.open()) watch(out.fd.get(), POLLIN);
        if (err.fd.open()) watch(err.fd.get(), POLLIN);
        if (feed.fd.open()) watch(feed.fd.get(), POLLOUT);
        if (pidfd.open()) watch(pidfd.get(), POLLIN);
        int timeout_ms = pidfd.open() ? -1 : 10;
        if (deadline) {
            double left_ms = std::chrono::duration<double, std::milli>(*deadline - now).count();
            int left = static_cast<int>(std::min(std::ceil(left_ms), 1e9));
            timeout_ms = timeout_ms < 0 ? left : std::min(timeout_ms, left);
        }
        if (poll(fds, count, timeout_ms) < 0 && errno != EINTR) break;
        out.drain();
        err.drain();
        if (feed.fd.open()) feed.write_some();
    }
    kill(-pid, SIGKILL);
    unregister_group(pid);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (end == SteadyClock::time_point{}) end = SteadyClock::now();
    out.drain();
    err.drain();
    result.wall_s = std::chrono::duration<double>(end - start).count();
    if (timed_out) {
        result.outcome = ProcessOutcome::TimedOut;
        result.signal = SIGKILL;
    } else if (WIFSIGNALED(status)) {
        result.outcome = ProcessOutcome::Signaled;
        result.signal = WTERMSIG(status);
    } else {
        result.outcome = ProcessOutcome::Exited;
        result.exit_code = WEXITSTATUS(status);
    }
    return result;
}

void kill_running_processes() {
    std::lock_guard lock(registry_mutex);
    for (pid_t pgid : live_groups()) kill(-pgid, SIGKILL);
}

std::filesystem::path find_executable(const std::string& program) {
    if (program.empty()) return {};
    if (program.find('/') != std::string::npos)
        return is_executable_file(program) ? std::filesystem::absolute(program) : std::filesystem::path{};
    return search_path(program, std::getenv("PATH"));
}

}  // namespace routetune
