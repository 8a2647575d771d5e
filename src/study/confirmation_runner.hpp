// The end of a study: the interleaved re-measurement of the default and the best routes,
// and the outcome it implies, within the time the study has left.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/spec.hpp"
#include "routetune/study.hpp"
#include "eval/evaluator.hpp"
#include "store/study_store.hpp"
#include "study/confirmation_progress.hpp"
#include "util/clock.hpp"

namespace routetune {

/// Confirms the best routes of a finished search and decides the outcome.
class ConfirmationRunner {
public:
    /// Uses evaluator's runs, baseline's references and timeouts, timing's rounds and min_gain;
    /// environment is added to every run (e.g. one GPU for all of them).
    ConfirmationRunner(const Evaluator& evaluator, const RunBaseline& baseline, const TimingSpec& timing,
                       std::map<std::string, std::string> environment = {});

    /// Sets the receiver of progress, told at the start of every round.
    void on_progress(ConfirmationProgressCallback callback) { progress_ = std::move(callback); }
    /// Fresh builds (confirm_rebuild) run up to jobs at once.
    void build_jobs(int jobs) { jobs_ = std::max(jobs, 1); }
    /// The confirmation must end by deadline_s on clock: decide() confirms nothing when its
    /// estimated cost does not fit, and stops once the next run of a round would not fit (a round
    /// it cuts short is not pooled).
    void within(const Clock& clock, double deadline_s) {
        clock_ = &clock;
        deadline_s_ = deadline_s;
    }

    /// Re-measures default and the top candidates interleaved (on fresh builds: confirm_builds
    /// of each, every build in every round), records the confirmation in store, and returns the
    /// outcome (not yet recorded): unfinished, recording nothing, when it cannot fit in time.
    StudyOutcome decide(StudyStore& store, const std::vector<Evaluation>& evaluations,
                        const Evaluation& default_evaluation);

    /// Measures routes interleaved (routes[0] is the default: D C1 ... Ck per round, one warm-up
    /// pass first when the spec has warm-ups) and returns each route's samples; a route whose run
    /// fails gets alive[i] = false (alive starts all true, one per route) and a note in dropped.
    std::vector<std::vector<double>> interleave(const std::vector<BuiltCandidate>& routes, std::vector<bool>& alive,
                                                std::vector<std::string>& dropped) const;

private:
    std::vector<std::vector<double>> rounds(const std::vector<BuiltCandidate>& builds, const std::vector<std::size_t>& route_of,
                                            std::vector<bool>& alive, std::vector<std::string>& dropped) const;
    std::vector<std::vector<BuiltCandidate>> ready(const std::vector<Evaluation>& routes) const;
    std::optional<std::string> does_not_fit(const std::vector<Evaluation>& routes) const;
    StudyOutcome conclude(const std::optional<Confirmation>& winner, const std::vector<Confirmation>& confirmations,
                          const std::vector<BuiltCandidate>& routes, const std::string& notes,
                          StudyOutcome outcome) const;

    const Evaluator& evaluator_;
    const RunBaseline& baseline_;
    const TimingSpec& timing_;
    std::map<std::string, std::string> environment_;
    ConfirmationProgressCallback progress_;
    int jobs_ = 1;
    const Clock* clock_ = nullptr;
    double deadline_s_ = 0;
    mutable int rounds_done_ = 0;          ///< rounds the last interleave measured
    mutable bool stopped_by_limit_ = false;  ///< ... and whether the deadline stopped it
    mutable int runs_not_pooled_ = 0;        ///< ... and the runs of the round it cut short (not pooled)
};

}  // namespace routetune
