// Keeping track of an evaluation's processes in the study store, so that a writer killed in the
// middle (kill -9, a crash, a power cut of the terminal) leaves nothing running that the next
// `tune --continue` cannot end.
#pragma once

#include <cstddef>

#include "eval/evaluator.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// inner, wrapped: a process with a label (the route hash) gets ROUTETUNE_EVALUATION_TAG =
/// "<this_process_tag>:<label>" in its environment and has its process group noted on that
/// route's pending row as soon as it starts. store must outlive the returned runner.
CommandRunner tracked_runner(CommandRunner inner, StudyStore& store);

/// Ends what the pending rows of store say is still running: each noted process group whose
/// leader is still the process that started then, and every process carrying a pending row's
/// evaluation tag (setsid'ed grandchildren too). Rows of this very process are skipped.
/// Returns how many processes or groups were signalled.
std::size_t end_leftover_processes(const StudyStore& store);

}  // namespace routetune
