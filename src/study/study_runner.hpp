// The tune loop: evaluate the default route, then what the strategy proposes within the
// budget (builds in parallel, measurements one at a time), record every finished evaluation
// before the next begins, confirm the best routes interleaved with the default, and keep or
// delete artifacts.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "routetune/study.hpp"
#include "eval/evaluator.hpp"
#include "study/study_paths.hpp"
#include "study/study_setup.hpp"
#include "study/tune_options.hpp"
#include "store/store_location.hpp"

namespace routetune {

/// Progress as the study goes, for the live line and logs.
struct StudyProgress {
    std::size_t done = 0;            ///< evaluations finished, the default included
    std::size_t planned = 0;         ///< candidates planned when known (0: unknown)
    std::map<Status, std::size_t> counts;  ///< finished evaluations by status
    double best_speedup = 1;         ///< by search medians
    double elapsed_s = 0;
    std::string last_route;
    std::string last_status;
};

/// Receives progress after each evaluation (and a final call with done set to the total).
using ProgressCallback = std::function<void(const StudyProgress&)>;

/// Runs one study.
class StudyRunner {
public:
    /// A runner over setup; every process goes through runner (tests inject fakes).
    StudyRunner(StudySetup& setup, TuneOptions options, CommandRunner runner = run_process);

    /// Sets the progress receiver.
    void on_progress(ProgressCallback callback) { progress_ = std::move(callback); }

    /// Runs (or with options.resume continues) the study and returns its summary. Throws
    /// FingerprintMismatch, UsageError (a --continue whose search differs), Interrupted (state
    /// saved; the message says what remains), RuntimeFailure (the default failed and no golden
    /// reference exists).
    StudySummary run();

    /// The study's files.
    const StudyPaths& paths() const { return paths_; }

private:
    struct State;

    StudySetup& setup_;
    TuneOptions options_;
    CommandRunner runner_;
    StudyPaths paths_;
    ProgressCallback progress_;
};

/// The summary of the study stored at store (report, and the end of tune).
StudySummary load_study_summary(const StoreLocation& store);

/// Where options say the study lives: --store URL (the study --study, else the spec's name),
/// else the SQLite file of paths.
StoreLocation study_store_location(const TuneOptions& options, const std::string& spec_name, const StudyPaths& paths);

}  // namespace routetune
