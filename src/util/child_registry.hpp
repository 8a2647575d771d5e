// The children run_process is waiting for, kept so that nobody else reaps them. routetune is
// a child subreaper, so besides its own children it adopts their orphans, which must be reaped
// too (a zombie left behind makes every later process-tree scan look again). The registry
// tells the two apart: a child is recorded under the registry's lock in the same critical
// section as the fork, and forgotten under it in the same critical section as its reaping, so
// while the lock is held every child of this process that is not recorded is an adopted
// orphan (or was started outside run_process, which this program does not do) and may be
// reaped without taking the exit status a waiting thread is about to read. Internal to
// util/: process.cpp, process_tree.cpp, child_launch.cpp, cancellation.cpp, interrupt_guard.cpp.
#pragma once

#include <spawn.h>
#include <sys/resource.h>
#include <sys/types.h>

namespace routetune::detail {

/// The owner the children the calling thread starts are recorded under (its current
/// cancellation, util/cancellation.hpp), or null.
const void* current_owner();

/// Makes owner (or null) the calling thread's owner of the children it starts.
void set_current_owner(const void* owner);

/// clone(fn, stack_top, CLONE_VM | CLONE_VFORK | SIGCHLD, arg): the child shares this
/// process's memory and runs fn on its own stack (only async-signal-safe calls, then exec or
/// _exit) while the calling thread waits; it is put in its own process group and recorded
/// (with the calling thread's current owner) before the lock is released.
/// Returns once the child has exec'ed or exited: its pid, or -1 with errno.
pid_t clone_recorded(int (*fn)(void*), void* stack_top, void* arg);

/// posix_spawn() with the child recorded (owned as above) before the lock is released (the
/// spawn returns once the child has exec'ed; attr must put it in its own process group);
/// returns posix_spawn's result (0, or the error number; a child that failed is reaped by
/// posix_spawn itself).
int spawn_recorded(pid_t* pid, const char* program, const posix_spawn_file_actions_t* actions,
                   const posix_spawnattr_t* attr, char* const* argv, char* const* envp);

/// Waits until recorded child pid has ended, then reaps it (status and usage may be null) and
/// forgets it in one critical section; returns wait4's result.
pid_t reap_recorded(pid_t pid, int* status, struct rusage* usage);

/// Sends sig to the process group of every recorded child (each leads its own group).
void signal_recorded_groups(int sig);

/// Sends sig to the process group of every recorded child started on a thread whose current
/// cancellation (util/cancellation.hpp) was owner.
void signal_owned_groups(const void* owner, int sig);

/// What reap_if_adopted found.
enum class AdoptedState { NotAChild, Reaped, Running };

/// Reaps pid without blocking when it is a child of this process that is not recorded (an
/// adopted orphan that has ended): Reaped; Running when it is such a child still running;
/// NotAChild otherwise (not a child, or a recorded one, which its own thread reaps).
AdoptedState reap_if_adopted(pid_t pid);

}  // namespace routetune::detail
