// Ctrl-C and SIGTERM during a study: the handler only records the request; a watcher thread
// then kills every child process group, so the evaluation in flight ends at once and the
// study loop can save its state and stop.
#pragma once

namespace routetune {

/// Installs SIGINT/SIGTERM handling for its lifetime (restoring the previous handlers after).
class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
};

/// True once SIGINT or SIGTERM arrived under an InterruptGuard (or request_interrupt ran).
bool interrupt_requested();

/// Asks for the same stop a signal would (tests, and a time limit that must end a run).
void request_interrupt();

/// Clears a request (a new study in the same process).
void clear_interrupt();

}  // namespace routetune
