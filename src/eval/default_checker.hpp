// The default as the warm measurement processes re-measure it, first and last in each process
// (eval/warm_measurements.hpp): the built default to run (the one the Evaluator last measured
// well, or the one a resumed study kept), and one run of each of its cases through a given
// process, into output and metrics files of its own, so that a check beside another lane's
// never shares a file.
#pragma once

#include <atomic>
#include <mutex>
#include <optional>

#include "eval/case_launcher.hpp"
#include "eval/evaluator.hpp"

namespace routetune {

/// Re-measures the default through a given launcher.
class DefaultChecker {
public:
    /// Runs cases through evaluator (which must outlive it).
    explicit DefaultChecker(const Evaluator& evaluator) : evaluator_(evaluator) {}
    /// Makes built the default to re-measure. Thread-safe.
    void remember(const BuiltCandidate& built);
    /// Each case of the default once through via: the sum of their times, or nullopt when no
    /// default is known or a run failed. Its files are removed after. Thread-safe.
    std::optional<double> operator()(CaseLauncher& via);

private:
    const Evaluator& evaluator_;
    std::mutex mutex_;
    std::optional<BuiltCandidate> built_;
    std::atomic<unsigned> checks_{0};
};

}  // namespace routetune
