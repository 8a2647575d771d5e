// The tune loop: evaluate the default route, then what the strategy proposes within the
// budget (the Scheduler: builds in parallel, measurements one at a time), record every
// finished evaluation before the next begins, confirm the best routes interleaved with the
// default, and keep or delete artifacts.
#pragma once

#include <functional>
#include <memory>

#include "routetune/study.hpp"
#include "eval/evaluator.hpp"
#include "study/confirmation_progress.hpp"
#include "study/evaluation_executor.hpp"
#include "study/study_ledger.hpp"
#include "study/study_location.hpp"
#include "eval/study_paths.hpp"
#include "study/study_setup.hpp"
#include "study/tune_options.hpp"
#include "store/store_location.hpp"
#include "util/clock.hpp"
#include "util/process_runner.hpp"

namespace routetune {

class Scheduler;
class QueueExecutor;

/// Makes the executor a study's candidates are evaluated on (default: a LocalExecutor).
using ExecutorFactory = std::function<std::unique_ptr<EvaluationExecutor>(const Evaluator&)>;

/// Receives a note for the user (e.g. that an earlier study was moved aside).
using NoticeCallback = std::function<void(const std::string&)>;

/// Runs one study.
class StudyRunner {
public:
    /// A runner over setup; every process goes through runner, every time through clock.
    StudyRunner(StudySetup& setup, TuneOptions options, ProcessRunner& runner = real_process_runner(),
                const Clock& clock = real_clock());

    /// Sets the progress receiver.
    void on_progress(ProgressCallback callback) { progress_ = std::move(callback); }
    /// Sets the receiver of the confirmation's progress (elapsed_s filled in).
    void on_confirmation_progress(ConfirmationProgressCallback callback) { confirmation_progress_ = std::move(callback); }
    /// Receives the progress of tune --minimize's shrinking at each judged removal.
    void on_minimization_progress(MinimizationProgressCallback callback) { minimization_progress_ = std::move(callback); }
    /// Sets the receiver of notes for the user.
    void on_notice(NoticeCallback callback) { notice_ = std::move(callback); }
    /// Sets where candidates are evaluated (the default: this machine).
    void use_executor(ExecutorFactory factory) { executor_factory_ = std::move(factory); }

    /// Runs (or with options.resume continues) the study, stores the summary's notes
    /// (record_study_notes) and returns the summary. Throws
    /// FingerprintMismatch, UsageError (a --continue whose search differs), Interrupted (state
    /// saved; the message says what remains), RuntimeFailure (the default failed and no golden
    /// reference exists).
    StudySummary run();

    /// The study's files.
    const StudyPaths& paths() const { return paths_; }

private:
    /// Keeps free, under --time-limit, what the command needs after its search (the confirmation,
    /// a measurement in progress, and with warm processes their closing); false when the
    /// confirmation does not fit in what is left, which is said: then only the measurement and
    /// the closing are kept free, and nothing is to be confirmed in this command.
    bool plan_time(Scheduler& scheduler, const StudyLedger& ledger, const RunBaseline& baseline, bool warm);
    /// Records the study's outcome as unfinished, message saying why.
    void record_unconfirmed(StudyStore& store, const std::string& message) const;
    void close_warm_processes(const Evaluator& evaluator);
    /// Evaluates the default route; false when the time limit came first (the outcome, unfinished,
    /// says so). Throws Interrupted.
    bool evaluate_default(Scheduler& scheduler, StudyLedger& ledger, StudyStore& store);
    void pair_with_default(const Evaluator& evaluator, const Evaluation& default_evaluation, RunBaseline& baseline);
    void require_usable_default(const StudyLedger& ledger, StudyStore& store, Scheduler& scheduler);
    void confirm(const Evaluator& evaluator, const RunBaseline& baseline, const StudyLedger& ledger, StudyStore& store);
    StudySummary summarize(const StudyStore& store, const StudyLedger& ledger, const ArtifactKeeper& keeper) const;
    /// Closes the warm processes, drops the artifacts not kept, and returns the summary with its
    /// notes stored: the end of every run that got past the default's start.
    StudySummary finish(const Evaluator& evaluator, StudyStore& store, const StudyLedger& ledger, ArtifactKeeper& keeper);

    StudySetup& setup_;
    TuneOptions options_;
    ProcessRunner& runner_;
    const Clock& clock_;
    StudyPaths paths_;
    StoreLocation where_;             ///< the store: paths_.cache, or --store URL
    QueueExecutor* queue_ = nullptr;  ///< the executor while run() uses the store's queue
    ProgressCallback progress_;
    ConfirmationProgressCallback confirmation_progress_;
    MinimizationProgressCallback minimization_progress_;
    NoticeCallback notice_;
    ExecutorFactory executor_factory_;
    double setup_s_ = 0;                             ///< what the command took before its study began
    double reserve_s_ = 0;                           ///< what the search kept free for the confirmation
    double confirmation_s_ = 0;                      ///< what the confirmation took
    double confirmation_deadline_s_ = 0;             ///< when the confirmation had to end, seconds into the command (0: none)
    std::vector<WarmProcessReport> warm_reports_;    ///< the warm measurement processes, once closed
    std::vector<CodeIdentity> code_identities_;
};

/// The summary of the study stored at store (report); opens it read-only.
StudySummary load_study_summary(const StoreLocation& store);

/// The summary of the study in an open store (the end of tune, on the writer's own connection).
StudySummary summarize_store(const StudyStore& store);

}  // namespace routetune
