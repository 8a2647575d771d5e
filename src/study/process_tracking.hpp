// Keeping track of an evaluation's processes in the study store, so that a writer killed in the
// middle (kill -9, a crash, a power cut of the terminal) leaves nothing running that the next
// `tune --continue` cannot end.
#pragma once

#include <cstddef>

#include "store/study_store.hpp"
#include "util/process_runner.hpp"

namespace routetune {

/// A ProcessRunner over inner: a process with a label (the route hash) gets
/// ROUTETUNE_EVALUATION_TAG = "<this_process_tag>:<label>" in its environment and has its
/// process group noted on that route's pending row as soon as it starts (where the store keeps
/// a ProcessLedger; a store without one gets the tag only).
class TrackingProcessRunner : public ProcessRunner {
public:
    /// inner and store must outlive this runner.
    TrackingProcessRunner(ProcessRunner& inner, StudyStore& store) : inner_(inner), ledger_(store.process_ledger()) {}
    /// inner.run(spec), tagged and noted as above.
    ProcessResult run(const ProcessSpec& spec) override;

private:
    ProcessRunner& inner_;
    ProcessLedger* ledger_;  ///< the store's, or nullptr
};

/// Ends what the pending rows of store say is still running: each noted process group whose
/// leader is still the process that started then, and every process carrying a pending row's
/// evaluation tag (setsid'ed grandchildren too). Rows of this very process are skipped; a store
/// without a ProcessLedger has none to end.
/// Returns how many processes or groups were signalled.
std::size_t end_leftover_processes(const StudyStore& store);

}  // namespace routetune
