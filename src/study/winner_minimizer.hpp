// The minimal route of a confirmed study: the winner shrunk by delta debugging with real
// builds and interleaved measurements, then re-confirmed against the default.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "eval/evaluator.hpp"
#include "routetune/spec.hpp"
#include "study/confirmation_progress.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// Shrinks the winner of an improved outcome (tune --minimize).
class WinnerMinimizer {
public:
    /// Uses evaluator's builds and runs, baseline's references and timeouts, timing's rounds
    /// and min_gain; environment is added to every run.
    WinnerMinimizer(const Evaluator& evaluator, const RunBaseline& baseline, const TimingSpec& timing,
                    std::map<std::string, std::string> environment = {});

    /// When outcome is improved: removes the winner's changes whose removal does not make it
    /// slower with confidence, guided by the study's evaluations (change_blocks), re-confirms
    /// the result against the
    /// default in interleaved rounds, and sets outcome's minimal_* fields (the winner itself
    /// when nothing could go; left unset when the shrunk route no longer beats the default by
    /// min_gain).
    void shrink(StudyOutcome& outcome, const Evaluation& default_evaluation, const std::vector<Evaluation>& evaluations) const;
    /// Calls callback at the start of each judged removal.
    void on_progress(MinimizationProgressCallback callback) { progress_ = std::move(callback); }

private:
    /// Route text -> the route built and measured Ok (the winner: built only).
    using Builds = std::map<std::string, BuiltCandidate>;
    /// route from builds, else built and measured in full and kept there; nullptr when it fails.
    const BuiltCandidate* measured(Builds& builds, const Route& route) const;
    /// The judge of one removal: candidate fails, or is slower than reference with confidence.
    bool costs_time(Builds& builds, const Route& reference, const Route& candidate) const;
    std::vector<std::vector<double>> interleaved(const std::vector<const BuiltCandidate*>& routes, int rounds) const;
    BuiltCandidate built(const Route& route) const;

    const Evaluator& evaluator_;
    const RunBaseline& baseline_;
    const TimingSpec& timing_;
    std::map<std::string, std::string> environment_;
    MinimizationProgressCallback progress_;
};

}  // namespace routetune
