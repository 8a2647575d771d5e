// Starting: a close-on-exec pipe; posix_spawn of /proc/self/exe with the pipe's read end as
// descriptor 3, /dev/null as 0-2, every other descriptor closed, a new session, an empty signal
// mask, and kGuardianVariable=<this process's tag> in an otherwise inherited environment
// (without any run_process tag, so no scan ever takes it for a child's descendant). The
// write end stays open in routetune for its whole life (close-on-exec: no child inherits it);
// at a normal exit an atexit handler closes it and reaps the guardian, which then has nothing
// to kill (a guardian left to init would stay a zombie where init does not reap).
// Guarding: a constructor that runs before main() in every program linking this file looks for
// kGuardianVariable, argv = {"routetune-guard"} and a pipe at descriptor 3; when all hold, the process ignores the terminal's signals, names itself
// "routetune-guard", blocks in read() on descriptor 3 until end-of-file, then ends every
// process whose ROUTETUNE_PROCESS_TAG starts with "<tag>." (end_tagged_processes, repeated
// until a scan finds none, at most 100 times) and exits without running the program.
#include "util/process_guardian.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "util/process_tree.hpp"

extern char** environ;

namespace routetune {

namespace {

constexpr int kGuardianFd = 3;
constexpr const char* kGuardianName = "routetune-guard";

pid_t g_guardian = -1;
int g_write_end = -1;

// At a normal exit: the guardian sees end-of-file, finds nothing of ours running, and is reaped.
void stop_guardian() {
    if (g_write_end < 0) return;
    close(g_write_end);
    g_write_end = -1;
    while (waitpid(g_guardian, nullptr, 0) < 0 && errno == EINTR) {
    }
}

[[noreturn]] void guard(const std::string& tag) {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU}) signal(sig, SIG_IGN);
    prctl(PR_SET_NAME, kGuardianName, 0, 0, 0);
    char byte = 0;
    while (true) {
        ssize_t got = read(kGuardianFd, &byte, 1);
        if (got == 0 || (got < 0 && errno != EINTR)) break;
    }
    for (int pass = 0; pass < 100; ++pass) {
        if (end_tagged_processes(kProcessTagVariable, tag + ".", TagMatch::Prefix) == 0) break;
    }
    _exit(0);
}

// Runs before main() (and before the program's own static objects; glibc passes an init
// function argc and argv): a guardian never returns. All three marks are needed, so a stray
// variable in a user's environment never turns routetune into a guardian.
__attribute__((constructor(101))) void guard_if_asked(int argc, char** argv, char**) {
    const char* tag = std::getenv(kGuardianVariable);
    struct stat pipe_info {};
    bool asked = tag != nullptr && *tag != '\0' && argc == 1 && argv != nullptr && argv[0] != nullptr &&
                 std::strcmp(argv[0], kGuardianName) == 0 && fstat(kGuardianFd, &pipe_info) == 0 &&
                 S_ISFIFO(pipe_info.st_mode);
    if (asked) guard(tag);
}

bool spawn_guardian() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    int read_end = fcntl(fds[0], F_DUPFD_CLOEXEC, 10);  // never 3 itself: dup2 onto 3 must clear close-on-exec
    close(fds[0]);
    if (read_end < 0) {
        close(fds[1]);
        return false;
    }
    std::vector<std::string> strings;
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        std::string_view text(*entry);
        std::string_view name = text.substr(0, text.find('='));
        if (name != kGuardianVariable && name != kProcessTagVariable && name != kEvaluationTagVariable)
            strings.emplace_back(text);
    }
    strings.push_back(std::string(kGuardianVariable) + "=" + this_process_tag());
    std::vector<char*> envp;
    for (std::string& s : strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    std::string name = kGuardianName;
    char* argv[] = {name.data(), nullptr};

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, read_end, kGuardianFd);
    posix_spawn_file_actions_addclosefrom_np(&actions, kGuardianFd + 1);
    for (int fd = 0; fd < 3; ++fd)
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t empty;
    sigemptyset(&empty);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK);
    pid_t pid = -1;
    int failed = posix_spawn(&pid, "/proc/self/exe", &actions, &attr, argv, envp.data());
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    close(read_end);
    if (failed != 0) {
        close(fds[1]);
        return false;
    }
    g_guardian = pid;
    g_write_end = fds[1];  // open until this process ends: its closing is the guardian's signal
    std::atexit(stop_guardian);
    return true;
}

}  // namespace

bool start_process_guardian() {
    static std::once_flag once;
    static bool started = false;
    std::call_once(once, [] { started = spawn_guardian(); });
    return started;
}

}  // namespace routetune
