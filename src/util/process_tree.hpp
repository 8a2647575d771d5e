// Finding and ending the processes a child left behind. Every child run_process starts
// carries a tag in its environment (ROUTETUNE_PROCESS_TAG), which its descendants inherit
// even when they leave its process group (setsid, double fork); routetune is also a child
// subreaper, so such orphans are re-parented to it rather than to init and are reaped by the
// scans here (util/child_registry tells them from the children run_process waits for).
// Process identity is (pid, start time in clock ticks since boot), so a recycled pid is never
// taken for the process that once held it.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace routetune {

/// The environment variable that carries run_process's per-call tag to a child and its descendants.
inline constexpr const char* kProcessTagVariable = "ROUTETUNE_PROCESS_TAG";
/// The environment variable that carries an evaluation's tag (recorded in its pending row).
inline constexpr const char* kEvaluationTagVariable = "ROUTETUNE_EVALUATION_TAG";

/// Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER), once; false when refused.
bool become_child_subreaper();

/// The start time of pid in clock ticks since boot (/proc/PID/stat field 22); 0 when gone.
std::uint64_t process_start_ticks(pid_t pid);

/// A tag unique to this routetune process ("<pid>-<start ticks>"), the prefix of its tags.
const std::string& this_process_tag();

/// How a process's variable is compared with a tag.
enum class TagMatch {
    Exact,   ///< variable=tag
    Prefix,  ///< variable=tag... (every call tag of one routetune process: "<process tag>.")
};

/// SIGKILLs every live process whose environment holds variable=tag (or a value starting with
/// tag) and reaps every adopted orphan that has ended (tagged or not, a killed one included);
/// returns how many processes were signalled. Processes that scrubbed their environment are
/// not found. Children started outside run_process would count as orphans: the program starts
/// none (its guardian, util/process_guardian.hpp, is never reaped while it runs).
std::size_t end_tagged_processes(std::string_view variable, std::string_view tag, TagMatch match = TagMatch::Exact);

/// SIGKILLs process group pgid when its leader pgid is still the process that started at
/// start_ticks (a recycled pid is left alone); true when a signal was sent.
bool end_group_if_same(pid_t pgid, std::uint64_t start_ticks);

}  // namespace routetune
