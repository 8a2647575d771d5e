// The current cancellation is the child registry's thread-local owner; cancel() sets its flag
// before it takes the registry's lock, so a child recorded after that lock was released sees the
// flag (and run_process kills it), and one recorded before is in the set cancel() signals.
#include "util/cancellation.hpp"

#include <signal.h>

#include "util/child_registry.hpp"

namespace routetune {

void Cancellation::cancel() {
    cancelled_.store(true);
    detail::signal_owned_groups(this, SIGKILL);
}

CancellationScope::CancellationScope(const Cancellation& cancellation) : previous_(current_cancellation()) {
    detail::set_current_owner(&cancellation);
}

CancellationScope::~CancellationScope() { detail::set_current_owner(previous_); }

const Cancellation* current_cancellation() { return static_cast<const Cancellation*>(detail::current_owner()); }

}  // namespace routetune
