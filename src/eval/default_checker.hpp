// The default as the warm measurement processes re-measure it, first and last in each process
// (eval/warm_measurements.hpp): the built default to run (the one the Evaluator last measured
// well, or the one a resumed study kept), and one run of each of its cases through a given
// process, into output and metrics files of its own, so that a check beside another lane's
// never shares a file.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "eval/candidate_run.hpp"
#include "eval/case_launcher.hpp"
#include "routetune/spec.hpp"

namespace routetune {

/// Re-measures the default through a given launcher.
class DefaultChecker {
public:
    /// One run of one case of a build through a launcher, its files named by a tag (the
    /// Evaluator's run_case, unbounded by any baseline).
    using RunCase = std::function<CaseRun(const BuiltCandidate& built, const CaseSpec& test_case, CaseLauncher& via,
                                          const std::string& file_tag)>;
    /// Re-measures the spec's cases with run_case.
    DefaultChecker(std::vector<CaseSpec> cases, RunCase run_case)
        : cases_(std::move(cases)), run_case_(std::move(run_case)) {}
    /// Makes built the default to re-measure. Thread-safe.
    void remember(const BuiltCandidate& built);
    /// Each case of the default once through via: the sum of their times, or nullopt when no
    /// default is known or a run failed. Its files are removed after. Thread-safe.
    std::optional<double> operator()(CaseLauncher& via);

private:
    std::vector<CaseSpec> cases_;
    RunCase run_case_;
    std::mutex mutex_;
    std::optional<BuiltCandidate> built_;
    std::atomic<unsigned> checks_{0};
};

}  // namespace routetune
