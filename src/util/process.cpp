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
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <set>

#include "util/child_launch.hpp"
#include "util/process_pipes.hpp"
#include "util/process_tree.hpp"

namespace routetune {
namespace {

using detail::Capture;
using detail::Fd;
using detail::SigpipeBlock;
using detail::StdinFeed;
using detail::make_pipe;
using detail::set_nonblocking;
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

// A tag of this call for the child's environment: this process's tag and a counter.
std::string next_call_tag() {
    static std::atomic<unsigned long> counter{0};
    return this_process_tag() + "." + std::to_string(counter++);
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
    become_child_subreaper();
    const std::string tag = next_call_tag();
    detail::LaunchPlan plan;
    plan.argv = spec.argv;
    std::map<std::string, std::string> env = spec.env;
    env[kProcessTagVariable] = tag;
    plan.envp = detail::merged_environment(env);
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
    Fd stdout_sink;
    if (spec.stdin_data.empty()) {
        child_stdin.reset(open("/dev/null", O_RDONLY | O_CLOEXEC));
    } else if (make_pipe(child_stdin, feed.fd)) {
        feed.data = spec.stdin_data;
        set_nonblocking(feed.fd.get());
    }
    if (!spec.stdout_file.empty()) {
        stdout_sink.reset(open(spec.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644));
        if (!stdout_sink.open())
            return spawn_failure("cannot open '" + spec.stdout_file.string() + "' for the output: " +
                                 std::strerror(errno));
        out.sink = stdout_sink.get();
    }
    make_pipe(out.fd, child_stdout);
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
    out.limit = err.limit = spec.output_limit_bytes;

    SigpipeBlock sigpipe_block;
    SteadyClock::time_point start = SteadyClock::now();
    detail::Launched launched = detail::launch_child(plan, register_group);
    child_stdin.reset();
    child_stdout.reset();
    child_stderr.reset();
    if (launched.pid < 0) return spawn_failure(launched.error);
    pid_t pid = launched.pid;
    if (launched.error.empty() && spec.on_started) spec.on_started(pid);
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
    // A timeout past 10^9 s (31 years) is no timeout the clock can hold; clamped, never overflowed.
    if (spec.timeout_s > 0)
        deadline = start + std::chrono::duration_cast<SteadyClock::duration>(
                               std::chrono::duration<double>(std::min(spec.timeout_s, 1e9)));
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
        if (out.exceeded || err.exceeded) {
            end = SteadyClock::now();
            break;
        }
        if (feed.fd.open()) feed.write_some();
    }
    kill(-pid, SIGKILL);
    unregister_group(pid);
    int status = 0;
    struct rusage usage {};
    pid_t reaped;
    do {
        reaped = wait4(pid, &status, 0, &usage);
    } while (reaped < 0 && errno == EINTR);
    result.user_s = static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
    result.system_s = static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
    if (reaped < 0) result.error = std::string("cannot wait for the child: ") + std::strerror(errno);
    end_tagged_processes(kProcessTagVariable, tag);
    if (end == SteadyClock::time_point{}) end = SteadyClock::now();
    out.drain();
    err.drain();
    result.wall_s = std::chrono::duration<double>(end - start).count();
    result.output_exceeded = out.exceeded || err.exceeded;
    if (timed_out) {
        result.outcome = ProcessOutcome::TimedOut;
        result.signal = SIGKILL;
    } else if (WIFSIGNALED(status)) {
        result.outcome = ProcessOutcome::Signaled;
        result.signal = WTERMSIG(status);
    } else {
        result.outcome = ProcessOutcome::Exited;
        result.exit_code = reaped < 0 ? -1 : WEXITSTATUS(status);
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
