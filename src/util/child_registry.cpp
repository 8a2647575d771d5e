// One mutex over the recorded pids, each with the cancellation that owns it (or none).
// clone_recorded holds it across clone() and spawn_recorded across posix_spawn() (the child
// never touches it: it only execs or _exits), reap_recorded across wait4 and the erase,
// reap_if_adopted across the lookup and waitpid(WNOHANG). A recorded
// child is waited for outside the lock (waitid with WNOWAIT leaves it a zombie), so a slow
// child never holds the lock.
#include "util/child_registry.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <map>
#include <mutex>

namespace routetune::detail {
namespace {

std::mutex registry_mutex;
thread_local const void* thread_owner = nullptr;

// Each recorded child with the cancellation current on the thread that started it (or null).
std::map<pid_t, const void*>& recorded() {
    static std::map<pid_t, const void*> children;
    return children;
}

}  // namespace

const void* current_owner() { return thread_owner; }

void set_current_owner(const void* owner) { thread_owner = owner; }

pid_t clone_recorded(int (*fn)(void*), void* stack_top, void* arg) {
    const void* owner = thread_owner;
    std::lock_guard lock(registry_mutex);
    pid_t pid = clone(fn, stack_top, CLONE_VM | CLONE_VFORK | SIGCHLD, arg);
    int saved = errno;
    if (pid > 0) recorded().emplace(pid, owner);
    errno = saved;
    return pid;
}

int spawn_recorded(pid_t* pid, const char* program, const posix_spawn_file_actions_t* actions,
                   const posix_spawnattr_t* attr, char* const* argv, char* const* envp) {
    const void* owner = thread_owner;
    std::lock_guard lock(registry_mutex);
    int result = posix_spawn(pid, program, actions, attr, argv, envp);
    if (result == 0) recorded().emplace(*pid, owner);
    return result;
}

pid_t reap_recorded(pid_t pid, int* status, struct rusage* usage) {
    siginfo_t info{};
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
    std::lock_guard lock(registry_mutex);
    pid_t reaped;
    do {
        reaped = wait4(pid, status, 0, usage);
    } while (reaped < 0 && errno == EINTR);
    recorded().erase(pid);
    return reaped;
}

void signal_recorded_groups(int sig) {
    std::lock_guard lock(registry_mutex);
    for (const auto& entry : recorded()) kill(-entry.first, sig);
}

void signal_owned_groups(const void* owner, int sig) {
    std::lock_guard lock(registry_mutex);
    for (const auto& [pgid, started_by] : recorded()) {
        if (started_by == owner) kill(-pgid, sig);
    }
}

AdoptedState reap_if_adopted(pid_t pid) {
    std::lock_guard lock(registry_mutex);
    if (recorded().count(pid) != 0) return AdoptedState::NotAChild;
    pid_t got;
    do {
        got = waitpid(pid, nullptr, WNOHANG);
    } while (got < 0 && errno == EINTR);
    if (got == pid) return AdoptedState::Reaped;
    return got == 0 ? AdoptedState::Running : AdoptedState::NotAChild;
}

}  // namespace routetune::detail
