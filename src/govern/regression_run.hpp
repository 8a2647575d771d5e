// The check every governed decision rests on: build the route and the default afresh, run every
// case of the spec (promotion-only ones included) on both, gate each case on its own (the
// class's threshold, never an average), then re-measure the two interleaved (A B A B ...) and
// require the spec's min_gain with confidence. promote, verify --rerun and review use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/spec.hpp"
#include "routetune/study.hpp"
#include "eval/evaluator.hpp"
#include "eval/study_paths.hpp"
#include "util/process_runner.hpp"

namespace routetune {

/// One case of the regression set on the route.
struct RegressionCase {
    std::string name;
    std::string case_class;
    bool promotion_only = false;
    Status status = Status::Pending;  ///< ok, inaccurate or a run failure
    double loss = 0;
    double threshold = 0;
    std::string message;              ///< why it failed
};

/// What to check.
struct RegressionOptions {
    bool check_cases = true;          ///< run every case on both routes and gate each one
    bool measure_gain = true;         ///< the interleaved A/B, requiring min_gain with confidence
};

/// The result of one regression run.
struct RegressionOutcome {
    Evaluation default_build;         ///< build fields of the fresh default
    Evaluation route_build;           ///< build fields (artifact sha256, bytes) of the fresh route
    std::string route_artifact;       ///< the fresh route's artifact path
    std::vector<RegressionCase> cases;
    std::optional<Confirmation> confirmation;
    bool gain_confirmed = false;
    std::vector<std::string> failures;  ///< every reason to refuse, one line each
    std::uint64_t builds = 0;
    std::uint64_t runs = 0;

    /// True when nothing failed.
    bool passed() const { return failures.empty(); }
};

/// Runs the regression set and the A/B of one route of spec.
class RegressionRun {
public:
    /// Builds in paths' work folders with adapter and catalog; runner runs every process.
    RegressionRun(const Spec& spec, const Adapter& adapter, const Catalog& catalog, StudyPaths paths,
                  ProcessRunner& runner = real_process_runner());

    /// Checks route as options say; failures name each failing case with its class and loss,
    /// a build that failed, or the gain that vanished.
    RegressionOutcome run(const Route& route, const RegressionOptions& options) const;

private:
    void check_cases(const Evaluator& evaluator, const BuiltCandidate& fresh_default, const BuiltCandidate& route,
                     RunBaseline& baseline, RegressionOutcome& outcome) const;
    void measure_gain(const Evaluator& evaluator, const BuiltCandidate& fresh_default, const BuiltCandidate& route,
                      const RunBaseline& baseline, RegressionOutcome& outcome) const;

    const Spec& spec_;
    const Adapter& adapter_;
    const Catalog& catalog_;
    StudyPaths paths_;
    ProcessRunner& runner_;
};

/// "1.23x [1.1, 1.3]": a speedup and its interval.
std::string speedup_text(double speedup, double low, double high);

}  // namespace routetune
