// Ending the processes of one piece of work from another thread, leaving every other process
// alone. The thread doing the work installs its Cancellation (CancellationScope); each child
// that run_process starts on that thread is recorded under it by util/child_registry, so
// cancel() signals exactly those process groups, under the registry's lock, while they are
// still unreaped (a pid reaped and reused is never signalled). A child the thread would start
// after cancel() is refused before it spawns, or killed right after when the two raced.
#pragma once

#include <atomic>

namespace routetune {

/// A request to end the processes of one piece of work; thread-safe.
class Cancellation {
public:
    /// Marks the work cancelled and kills (SIGKILL) the process groups its thread runs now.
    void cancel();
    /// True once cancel() ran.
    bool cancelled() const { return cancelled_.load(); }

private:
    std::atomic<bool> cancelled_{false};
};

/// Makes a cancellation the current thread's for its lifetime (the earlier one after).
class CancellationScope {
public:
    /// cancellation must outlive the scope.
    explicit CancellationScope(const Cancellation& cancellation);
    ~CancellationScope();
    CancellationScope(const CancellationScope&) = delete;
    CancellationScope& operator=(const CancellationScope&) = delete;

private:
    const Cancellation* previous_;
};

/// The current thread's cancellation, or nullptr outside any CancellationScope.
const Cancellation* current_cancellation();

}  // namespace routetune
