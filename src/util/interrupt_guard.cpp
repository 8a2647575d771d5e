// The signal handler is async-signal-safe: it sets an atomic flag and writes one byte to a
// pipe. A watcher thread blocks on the pipe and, on a byte, kills the running children's
// process groups (run_process registers them); the outermost guard's destructor wakes it with
// a second byte value to end it. A depth counter under a mutex lets guards nest (a command's
// guard around a study's own).
#include "util/interrupt_guard.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <mutex>
#include <thread>

#include "routetune/error.hpp"
#include "util/child_registry.hpp"

namespace routetune {

namespace {

std::atomic<bool> g_requested{false};
std::mutex g_mutex;
int g_depth = 0;
int g_pipe[2] = {-1, -1};
std::thread g_watcher;
struct sigaction g_old_int, g_old_term;

void on_signal(int) {
    g_requested.store(true);
    char byte = 'k';
    if (g_pipe[1] >= 0) [[maybe_unused]] auto n = write(g_pipe[1], &byte, 1);
}

void watch(int fd) {
    char byte = 0;
    while (read(fd, &byte, 1) == 1) {
        if (byte == 'q') return;
        detail::signal_recorded_groups(SIGKILL);
    }
}

}  // namespace

InterruptGuard::InterruptGuard() {
    std::lock_guard lock(g_mutex);
    if (g_depth++ > 0) return;
    if (pipe2(g_pipe, O_CLOEXEC) != 0) g_pipe[0] = g_pipe[1] = -1;
    if (g_pipe[0] >= 0) g_watcher = std::thread(watch, g_pipe[0]);
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &g_old_int);
    sigaction(SIGTERM, &action, &g_old_term);
}

InterruptGuard::~InterruptGuard() {
    std::lock_guard lock(g_mutex);
    if (--g_depth > 0) return;
    sigaction(SIGINT, &g_old_int, nullptr);
    sigaction(SIGTERM, &g_old_term, nullptr);
    if (g_pipe[1] >= 0) {
        char byte = 'q';
        [[maybe_unused]] auto n = write(g_pipe[1], &byte, 1);
    }
    if (g_watcher.joinable()) g_watcher.join();
    for (int& fd : g_pipe) {
        if (fd >= 0) close(fd);
        fd = -1;
    }
}

bool interrupt_requested() { return g_requested.load(); }

void throw_if_interrupted(const char* what) {
    if (interrupt_requested()) throw Interrupted(what);
}

void request_interrupt() {
    g_requested.store(true);
    detail::signal_recorded_groups(SIGKILL);
}

void clear_interrupt() { g_requested.store(false); }

}  // namespace routetune
