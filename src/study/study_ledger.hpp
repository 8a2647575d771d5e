// What a study has finished: every evaluation committed to the store in the order it
// finished, the history the strategy proposes from, the progress counts, which run identities
// were measured (so a byte-identical artifact is answered, not run again: study/same_artifact),
// and (through the artifact keeper) which scratch folders stay. The scheduler commits here; the runner reads.
#pragma once

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/strategy.hpp"
#include "store/study_store.hpp"
#include "study/artifact_keeper.hpp"
#include "util/clock.hpp"

namespace routetune {

/// Progress as the study goes, for the live line and logs.
struct StudyProgress {
    std::size_t done = 0;            ///< evaluations finished, the default included
    std::size_t planned = 0;         ///< candidates planned when known (0: unknown)
    std::map<Status, std::size_t> counts;  ///< finished evaluations by status
    double best_speedup = 1;         ///< by the search phase's speedups (speedup_against_default)
    double elapsed_s = 0;
    std::string last_route;
    std::string last_status;
};

/// Receives progress after each evaluation.
using ProgressCallback = std::function<void(const StudyProgress&)>;

/// What an evaluation's runs would be (Evaluator::run_identity); "" when it has no artifact.
using RunIdentity = std::function<std::string(const Evaluation&)>;

/// The finished evaluations of one study and what follows from them.
class StudyLedger {
public:
    /// A ledger over store; the study's clock starts now; planned: the evaluations expected
    /// (the default included; 0 when unknown); identity tells which evaluations ran the same way.
    StudyLedger(StudyStore& store, ArtifactKeeper& keeper, const Clock& clock, double min_gain,
                std::size_t planned, RunIdentity identity);

    /// Reads the finished evaluations already in the store (a resumed study); pending rows
    /// are left out, so their routes run again.
    void load();
    /// Sets the progress receiver.
    void on_progress(ProgressCallback callback) { progress_callback_ = std::move(callback); }
    /// Records e (the default when its route is empty) in the store, the history and the
    /// counts, lets the keeper drop artifacts, and reports progress. Once an interrupt was
    /// requested nothing is recorded: the evaluation in flight was cut short.
    void commit(Evaluation e);

    /// Records in the store that route started (a pending row, until commit replaces it).
    void mark_started(const Route& route, const std::string& phase);

    /// The run identity of e (see RunIdentity).
    std::string run_identity(const Evaluation& e) const { return identity_(e); }
    /// The finished evaluation that measured_itself the runs of identity (this invocation's or
    /// a resumed study's), or nullptr when none did or identity is "".
    const Evaluation* measured_twin(const std::string& identity) const;

    /// The history the strategy sees: one observation per finished evaluation.
    const SearchHistory& history() const { return history_; }
    /// Every finished evaluation, in the order it finished.
    const std::vector<Evaluation>& evaluations() const { return evaluations_; }
    /// The default route's evaluation once it finished.
    const std::optional<Evaluation>& default_evaluation() const { return default_; }
    /// Finished candidates other than the default, across invocations (what the budget counts).
    std::size_t candidates_done() const { return candidates_done_; }
    /// True when this invocation committed an evaluation.
    bool added() const { return added_; }
    /// Counts the study from started_s, an earlier reading of its clock (the command's start,
    /// so that --time-limit covers the setup before the ledger too).
    void count_from(double started_s) { started_s_ = std::min(started_s, started_s_); }
    /// The clock reading when the study began.
    double started_s() const { return started_s_; }
    /// Seconds since the study began.
    double elapsed_s() const { return clock_.now_s() - started_s_; }
    /// The progress so far.
    const StudyProgress& progress() const { return progress_; }
    /// What an interrupted study leaves behind and how to resume it (cache: the store's path).
    std::string remaining_text(const std::filesystem::path& cache) const;

private:
    void add(Evaluation e);
    void report(const Evaluation& e);

    StudyStore& store_;
    ArtifactKeeper& keeper_;
    const Clock& clock_;
    double started_s_;
    SearchHistory history_;
    std::vector<Evaluation> evaluations_;
    std::optional<Evaluation> default_;
    StudyProgress progress_;
    ProgressCallback progress_callback_;
    std::size_t candidates_done_ = 0;
    bool added_ = false;
    RunIdentity identity_;
    std::unordered_map<std::string, std::size_t> measured_;  ///< run identity -> its measurement in evaluations_
};

}  // namespace routetune
