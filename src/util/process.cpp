// run_process: the child is forked into its own process group (child_launch.cpp), its stdout
// and stderr come back through non-blocking close-on-exec pipes, and one poll() loop writes
// stdin, drains both pipes (keeping the first output_cap bytes, reading on past the cap so the
// child never blocks) and watches the child through a pidfd (or a 10 ms tick where pidfds are
// unavailable). The child's exit is detected without reaping it (waitid WNOWAIT), so its pid
// stays reserved while the whole group gets SIGKILL: background grandchildren die with it,
// and the loop never waits for a grandchild that still holds a pipe open. Only then is the
// child reaped (and forgotten by util/child_registry in the same step), and what is left in
// the pipes read without blocking. A timeout kills the group the same way. The registry
// holds every child from its fork to its reaping, so kill_running_processes() can end them
// all, and the process-tree scan can reap adopted orphans without touching them; a
// Cancellation (util/cancellation.hpp) ends only the children of its own thread's work.
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
#include <optional>

#include "util/cancellation.hpp"
#include "util/child_launch.hpp"
#include "util/child_registry.hpp"
#include "util/interrupt_guard.hpp"
#include "util/process_guardian.hpp"
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

// The descriptors of one child: what the parent keeps (captures, the stdin feed) and the
// child's ends, closed in the parent once the child has started.
struct ChildStreams {
    StdinFeed feed;
    Fd child_stdin, child_stdout, child_stderr;
    Fd stdout_sink;  ///< the output file, when the child's stdout goes to one (through the pipe)
    Capture out, err;
};

// The program execve gets: argv[0] itself when it holds a '/', else its match on PATH (the
// spec's PATH when it sets one); empty error when found.
std::string resolve_program(const ProcessSpec& spec, detail::LaunchPlan& plan) {
    plan.program = spec.argv[0];
    if (plan.program.find('/') != std::string::npos) return "";
    auto overlay_path = spec.env.find("PATH");
    const char* path = overlay_path != spec.env.end() ? overlay_path->second.c_str() : std::getenv("PATH");
    std::filesystem::path found = search_path(plan.program, path);
    if (found.empty()) return "program '" + plan.program + "' not found on PATH";
    plan.program = found.string();
    return "";
}

// Opens the child's stdin (the data's pipe or /dev/null), stdout (a pipe, copied on to the
// output file when there is one, so its size is bounded too) and stderr (a pipe); empty error
// on success.
std::string open_streams(const ProcessSpec& spec, ChildStreams& io, ProcessResult& result) {
    if (spec.stdin_data.empty()) {
        io.child_stdin.reset(open("/dev/null", O_RDONLY | O_CLOEXEC));
    } else if (make_pipe(io.child_stdin, io.feed.fd)) {
        io.feed.data = spec.stdin_data;
        set_nonblocking(io.feed.fd.get());
    }
    if (!spec.stdout_file.empty()) {
        io.stdout_sink.reset(open(spec.stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644));
        if (!io.stdout_sink.open())
            return "cannot open '" + spec.stdout_file.string() + "' for the output: " + std::strerror(errno);
        io.out.sink = io.stdout_sink.get();
    }
    make_pipe(io.out.fd, io.child_stdout);
    make_pipe(io.err.fd, io.child_stderr);
    if (!io.child_stdin.open() || !io.child_stdout.open() || !io.child_stderr.open())
        return std::string("cannot create the child's pipes: ") + std::strerror(errno);
    io.out.text = &result.out;
    io.out.truncated = &result.out_truncated;
    io.out.cap = spec.output_cap;
    io.err.text = &result.err;
    io.err.truncated = &result.err_truncated;
    io.err.cap = spec.output_cap;
    io.out.limit = io.err.limit = spec.output_limit_bytes;
    return "";
}

// Until the child exits, the deadline passes or its output passes the limit: feed stdin, drain
// both pipes, sleep in poll() on the pipes and the pidfd. Returns true when the deadline killed the group; end is set to
// when the child's end was seen.
bool watch_child(pid_t pid, ChildStreams& io, std::optional<SteadyClock::time_point> deadline,
                 SteadyClock::time_point& end) {
    Fd pidfd(open_pidfd(pid));
    if (io.out.fd.open()) set_nonblocking(io.out.fd.get());
    set_nonblocking(io.err.fd.get());
    while (true) {
        if (has_exited(pid, false)) {
            end = SteadyClock::now();
            return false;
        }
        SteadyClock::time_point now = SteadyClock::now();
        if (deadline && now >= *deadline) {
            kill(-pid, SIGKILL);
            has_exited(pid, true);
            end = SteadyClock::now();
            return true;
        }
        pollfd fds[4];
        nfds_t count = 0;
        auto watch = [&](int fd, short events) { fds[count++] = pollfd{fd, events, 0}; };
        if (io.out.fd.open()) watch(io.out.fd.get(), POLLIN);
        if (io.err.fd.open()) watch(io.err.fd.get(), POLLIN);
        if (io.feed.fd.open()) watch(io.feed.fd.get(), POLLOUT);
        if (pidfd.open()) watch(pidfd.get(), POLLIN);
        int timeout_ms = pidfd.open() ? -1 : 10;
        if (deadline) {
            double left_ms = std::chrono::duration<double, std::milli>(*deadline - now).count();
            int left = static_cast<int>(std::min(std::ceil(left_ms), 1e9));
            timeout_ms = timeout_ms < 0 ? left : std::min(timeout_ms, left);
        }
        if (poll(fds, count, timeout_ms) < 0 && errno != EINTR) return false;
        io.out.drain();
        io.err.drain();
        if (io.out.exceeded || io.err.exceeded || io.out.sink_error != 0) {
            end = SteadyClock::now();
            return false;
        }
        if (io.feed.fd.open()) io.feed.write_some();
    }
}

// Kills what is left of the group, reaps the child with its resource usage and fills how it ended.
void reap_child(pid_t pid, bool timed_out, ProcessResult& result) {
    kill(-pid, SIGKILL);
    int status = 0;
    struct rusage usage {};
    pid_t reaped = detail::reap_recorded(pid, &status, &usage);
    if (reaped < 0) result.error = std::string("cannot wait for the child: ") + std::strerror(errno);
    result.user_s = static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
    result.system_s = static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
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
}

}  // namespace

ProcessResult run_process(const ProcessSpec& spec) {
    if (spec.argv.empty() || spec.argv[0].empty()) return spawn_failure("empty command");
    if (interrupt_requested()) return spawn_failure("interrupted (SIGINT or SIGTERM): no new process is started");
    become_child_subreaper();
    start_process_guardian();
    const std::string tag = next_call_tag();
    detail::LaunchPlan plan;
    plan.argv = spec.argv;
    std::map<std::string, std::string> env = spec.env;
    env[kProcessTagVariable] = tag;
    plan.envp = detail::merged_environment(env);
    plan.cwd = spec.cwd.string();
    plan.memory_limit_bytes = spec.memory_limit_bytes;
    plan.file_size_limit_bytes = spec.file_size_limit_bytes;
    plan.nice_increment = spec.nice_increment;
    if (rlimit own{}; plan.file_size_limit_bytes > 0 && getrlimit(RLIMIT_FSIZE, &own) == 0 && own.rlim_max != RLIM_INFINITY)
        plan.file_size_limit_bytes = std::min<std::uint64_t>(plan.file_size_limit_bytes, own.rlim_max);
    if (std::string error = resolve_program(spec, plan); !error.empty()) return spawn_failure(error);
    ProcessResult result;
    ChildStreams io;
    if (std::string error = open_streams(spec, io, result); !error.empty()) return spawn_failure(error);
    plan.stdin_fd = io.child_stdin.get();
    plan.stdout_fd = io.child_stdout.get();
    plan.stderr_fd = io.child_stderr.get();

    const Cancellation* cancellation = current_cancellation();
    if (cancellation && cancellation->cancelled()) return spawn_failure("cancelled before it started");
    SigpipeBlock sigpipe_block;
    SteadyClock::time_point start = SteadyClock::now();
    detail::Launched launched = detail::launch_child(plan);
    io.child_stdin.reset();
    io.child_stdout.reset();
    io.child_stderr.reset();
    if (launched.pid < 0) return spawn_failure(launched.error);
    pid_t pid = launched.pid;
    if (cancellation && cancellation->cancelled()) kill(-pid, SIGKILL);  // cancel() ran during the spawn
    if (launched.error.empty() && spec.on_started) spec.on_started(pid);
    if (!launched.error.empty()) {
        detail::reap_recorded(pid, nullptr, nullptr);
        return spawn_failure(launched.error);
    }
    std::optional<SteadyClock::time_point> deadline;
    // A timeout past 10^9 s (31 years) is no timeout the clock can hold; clamped, never overflowed.
    if (spec.timeout_s > 0)
        deadline = start + std::chrono::duration_cast<SteadyClock::duration>(
                               std::chrono::duration<double>(std::min(spec.timeout_s, 1e9)));
    SteadyClock::time_point end;
    bool timed_out = watch_child(pid, io, deadline, end);
    reap_child(pid, timed_out, result);
    end_tagged_processes(kProcessTagVariable, tag);
    if (end == SteadyClock::time_point{}) end = SteadyClock::now();
    io.out.drain();
    io.err.drain();
    result.wall_s = std::chrono::duration<double>(end - start).count();
    result.output_exceeded = io.out.exceeded || io.err.exceeded;
    if (io.out.sink_error != 0)
        result.stdout_file_error = "cannot write '" + spec.stdout_file.string() + "': " + std::strerror(io.out.sink_error);
    return result;
}

void kill_running_processes() { detail::signal_recorded_groups(SIGKILL); }

std::filesystem::path find_executable(const std::string& program) {
    if (program.empty()) return {};
    if (program.find('/') != std::string::npos)
        return is_executable_file(program) ? std::filesystem::absolute(program) : std::filesystem::path{};
    return search_path(program, std::getenv("PATH"));
}

}  // namespace routetune
