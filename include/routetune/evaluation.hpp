// The record of one evaluation (build + runs + accuracy + timing of one candidate), as kept
// in the study store and reported.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routetune/route.hpp"
#include "routetune/status.hpp"

namespace routetune {

/// A sample of times and its summary (seconds).
struct TimingSummary {
    std::vector<double> samples_s;  ///< one per repeat, warm-ups excluded
    double median_s = 0;
    double ci_low_s = 0;            ///< 95% confidence interval of the median
    double ci_high_s = 0;
};

/// The samples with their median and the distribution-free 95% interval of the median.
TimingSummary summarize(const std::vector<double>& samples);

/// One case of one evaluation.
struct CaseResult {
    std::string name;
    Status status = Status::Pending;  ///< ok, inaccurate, run_failed, run_crashed, run_timeout
    int exit_code = 0;
    int signal = 0;
    double loss = 0;                  ///< under the spec's metric; NaN when not computed
    std::string stderr_tail;
    TimingSummary timing;
};

/// One candidate's whole evaluation.
struct Evaluation {
    std::int64_t id = 0;              ///< store row id; 0 before it is stored
    Route route;
    std::string phase;                ///< "default", "fast", "full", "mixed-2", "random", ...
    Status status = Status::Pending;
    std::string message;              ///< why it failed, in one line
    double build_s = 0;
    std::string build_log_tail;
    std::string artifact_sha256;
    std::uint64_t artifact_bytes = 0;
    std::string artifact_path;        ///< kept artifact, or "" when deleted
    std::vector<CaseResult> cases;
    TimingSummary timing;             ///< per repeat: the sum over cases
    std::string started_at;           ///< ISO 8601 UTC
    std::string finished_at;
    std::string worker;               ///< scale-out: the worker that evaluated it ("" when local)
    std::string host;                 ///< scale-out: that worker's host ("" when local)
    /// The route whose artifact and run environment this one's are, as reports print it
    /// ("(default)" for the default): it was not run, its status, cases and timing are that
    /// evaluation's; "" when it was measured itself.
    std::string same_as;
};

}  // namespace routetune
