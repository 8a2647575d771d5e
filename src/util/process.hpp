// Running one child process from an argv array (never a shell): its own process group, an
// optional timeout (the whole group is killed), a memory limit, captured and size-capped
// stdout/stderr (or stdout streamed to a file), a limit on how much a child may print. Spawn failures and signals are results, not exceptions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace routetune {

/// What to run and under which limits.
struct ProcessSpec {
    std::vector<std::string> argv;                   ///< argv[0] is searched on PATH if it has no '/'
    std::filesystem::path cwd;                       ///< empty: the current folder
    std::map<std::string, std::string> env;          ///< set on top of the inherited environment
    double timeout_s = 0;                            ///< 0: none; else SIGKILL to the group after it
    std::uint64_t memory_limit_bytes = 0;            ///< 0: none; else RLIMIT_AS of the child
    std::uint64_t file_size_limit_bytes = 0;         ///< 0: none; else RLIMIT_FSIZE of the child and its
                                                     ///< descendants (a longer write ends it by SIGXFSZ)
    int nice_increment = 0;                          ///< 0: the parent's priority; else added to the child's
                                                     ///< niceness (it yields the CPU to processes at 0)
    std::size_t output_cap = 1 << 20;                ///< bytes kept of stdout and of stderr each
    std::filesystem::path stdout_file;               ///< non-empty: stdout is streamed to this file
    std::string stdin_data;                          ///< written to the child's stdin, then closed
    std::uint64_t output_limit_bytes = 0;            ///< 0: none; else more on stdout or stderr ends it
    std::function<void(int pgid)> on_started;        ///< called once the child (and its group) exists
    std::string label;                               ///< for wrappers of the runner (the route hash); unused here
};

/// How a process ended.
enum class ProcessOutcome { Exited, Signaled, TimedOut, SpawnFailed };

/// What happened to one process.
struct ProcessResult {
    ProcessOutcome outcome = ProcessOutcome::SpawnFailed;
    int exit_code = -1;              ///< valid when Exited
    int signal = 0;                  ///< valid when Signaled
    double wall_s = 0;               ///< from spawn to reap
    double user_s = 0;               ///< user CPU time of the child and the children it waited for (wait4)
    double system_s = 0;             ///< system CPU time, likewise
    std::string out;                 ///< stdout (capped; empty when stdout_file was set)
    std::string err;                 ///< stderr (capped)
    bool out_truncated = false;
    bool err_truncated = false;
    bool output_exceeded = false;    ///< stdout or stderr passed output_limit_bytes: the group was killed
    std::string stdout_file_error;   ///< why stdout_file could not be written (ENOSPC, EFBIG): the group was killed
    std::string error;               ///< why spawning failed

    /// True when the process exited with code 0.
    bool succeeded() const { return outcome == ProcessOutcome::Exited && exit_code == 0; }
};

/// Runs spec to completion; when it ends, every descendant still carrying its tag (setsid'ed
/// ones included) is killed too, and if this process dies first its guardian kills them
/// (util/process_guardian.hpp). After an interrupt (util/interrupt_guard.hpp) no child is
/// started: SpawnFailed. Thread-safe; never throws for the child's behaviour.
ProcessResult run_process(const ProcessSpec& spec);

/// Kills every process group started by run_process that is still running (from a signal
/// handler's follow-up, not from inside the handler).
void kill_running_processes();

/// The absolute path of program searched on PATH (or program itself if it has a '/'); empty
/// when not found or not executable.
std::filesystem::path find_executable(const std::string& program);

}  // namespace routetune
