// Starting one child with posix_spawn, or clone (CLONE_VM | CLONE_VFORK) + execve where rlimits
// must be set: everything the child needs is prepared before, so the child only makes
// async-signal-safe calls. Internal to process.cpp.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>


namespace routetune::detail {

/// A child about to be started: resolved program, argv/envp, and the descriptors it gets.
struct LaunchPlan {
    std::string program;             ///< passed to execve (absolute, or relative to cwd)
    std::vector<std::string> argv;
    std::vector<std::string> envp;   ///< "NAME=value" strings
    std::string cwd;                 ///< empty: inherit
    std::uint64_t memory_limit_bytes = 0;     ///< 0: none; else RLIMIT_AS (soft and hard)
    std::uint64_t file_size_limit_bytes = 0;  ///< 0: none; else RLIMIT_FSIZE (soft and hard)
    int nice_increment = 0;          ///< 0: the parent's scheduling priority; else added with nice()
    int stdin_fd = -1;               ///< becomes the child's descriptor 0
    int stdout_fd = -1;              ///< becomes descriptor 1
    int stderr_fd = -1;              ///< becomes descriptor 2
};

/// A started child, or why it could not be started.
struct Launched {
    pid_t pid = -1;                  ///< the child and its process group; -1 when fork failed
    std::string error;               ///< why it failed; a forked child that failed must be reaped
};

/// The inherited environment with overlay set on top, as "NAME=value" strings.
std::vector<std::string> merged_environment(const std::map<std::string, std::string>& overlay);

/// Starts the child (posix_spawn, or clone when it has a memory or file-size limit; recorded
/// in util/child_registry) in its own process group with cwd, the limits and the descriptors
/// applied; returns once the exec succeeded or failed. The caller reaps a child with a pid
/// (also one that failed after the clone) with reap_recorded.
Launched launch_child(const LaunchPlan& plan);

}  // namespace routetune::detail
