// Children that outlive a killed routetune. Every process run_process starts carries
// ROUTETUNE_PROCESS_TAG=<this process's tag>.<n> (util/process_tree.hpp), and while routetune
// lives it ends them itself. A SIGKILL (or a crash) gives it no chance, so the first
// run_process also starts a guardian: this program's own executable again, in a session of its
// own (terminal signals do not reach it), holding the read end of a pipe whose write end only
// routetune holds. When routetune ends in any way the kernel closes that end; the guardian
// sees end-of-file, kills every process whose environment carries one of routetune's tags
// (setsid'ed and double-forked descendants included) and exits. A direct child's
// PR_SET_PDEATHSIG would catch only that child, and fires when the thread that spawned it
// ends rather than the process; a guardian catches the whole tree.
#pragma once

namespace routetune {

/// Starts this process's guardian once (later calls return the first answer); false when it
/// could not be started (no /proc/self/exe, no pipe): children are then ended only while this
/// process lives. Thread-safe.
bool start_process_guardian();

/// The environment variable that makes a process the guardian of the tag it holds; read before
/// main() by the program that links run_process, which then guards and exits.
inline constexpr const char* kGuardianVariable = "ROUTETUNE_GUARDIAN_OF";

}  // namespace routetune
