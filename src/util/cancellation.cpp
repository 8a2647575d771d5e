// The current cancellation is a thread-local pointer; cancel() sets its flag before it takes
// the registry's lock, so a child recorded after that lock was released sees the flag (and
// run_process kills it), and one recorded before is in the set cancel() signals.
#include "util/cancellation.hpp"

#include <signal.h>

#include "util/child_registry.hpp"

namespace routetune {
namespace {

thread_local const Cancellation* current = nullptr;

}  // namespace

void Cancellation::cancel() {
    cancelled_.store(true);
    detail::signal_owned_groups(this, SIGKILL);
}

CancellationScope::CancellationScope(const Cancellation& cancellation) : previous_(current) { current = &cancellation; }

CancellationScope::~CancellationScope() { current = previous_; }

const Cancellation* current_cancellation() { return current; }

}  // namespace routetune
