// Ctrl-C and SIGTERM during a command that runs builds or workloads: the handler only records
// the request; a watcher thread then kills every child process group, so the process in flight
// ends at once, run_process starts no new child, and the command can save its state and stop
// (it throws Interrupted, exit 130). Guards nest: only the outermost installs the handlers.
#pragma once

namespace routetune {

/// Installs SIGINT/SIGTERM handling for its lifetime (restoring the previous handlers after the
/// outermost guard ends). A signal that was ignored (a background job of a shell) is handled too.
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
};

/// True once SIGINT or SIGTERM arrived under an InterruptGuard (or request_interrupt ran).
bool interrupt_requested();

/// Throws Interrupted(what) when interrupt_requested(); what says where it stopped and what is kept.
void throw_if_interrupted(const char* what);

/// Asks for the same stop a signal would (tests, and a time limit that must end a run).
void request_interrupt();

/// Clears a request (a new study in the same process).
void clear_interrupt();

}  // namespace routetune
