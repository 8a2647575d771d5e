// The record of one evaluation (build + runs + accuracy + timing of one candidate), as kept
// in the study store and reported.
#pragma once

#include <cstdint>
#include <optional>
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

/// A candidate's rounds run next to the default's: round k ran the default and the candidate
/// back to back, each case of one right after the same case of the other (the default first
/// in even rounds, the candidate first in odd ones), so a load that drifts lands on both.
struct PairedTiming {
    std::vector<double> default_s;    ///< per round: the default's time, summed over the cases
    std::vector<double> candidate_s;  ///< per round: this evaluation's time, summed over the cases

    /// True when it holds at least one pair (equal, non-zero lengths).
    bool has_pairs() const { return !default_s.empty() && default_s.size() == candidate_s.size(); }
};

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
    double run_first_s = 0;           ///< wall time of one run over every case, the build's first (a warm process's
                                      ///< first request left out); 0: not measured, or a store before SQLite
                                      ///< schema 6 / PostgreSQL 4
    double run_repeat_s = 0;          ///< wall time of a later run over every case (the median); 0: as above
    PairedTiming paired;              ///< the rounds paired with the default's; empty: measured
                                      ///< unpaired ([timing] paired = false, a store before SQLite schema 5 / PostgreSQL 3)
    std::string started_at;           ///< ISO 8601 UTC
    std::string finished_at;
    std::string worker;               ///< scale-out: the worker that evaluated it ("" when local)
    std::string host;                 ///< scale-out: that worker's host ("" when local)
    /// The route whose artifact and run environment this one's are, as reports print it
    /// ("(default)" for the default): it was not run, its status, cases and timing are that
    /// evaluation's; "" when it was measured itself.
    std::string same_as;
};

/// A speedup against the default with its 95% interval.
struct SpeedupEstimate {
    double speedup = 1;    ///< how many times faster than the default
    double ci_low = 1;     ///< 95% interval of the speedup; NaN when the timing had none
    double ci_high = 1;
    bool paired = false;   ///< from paired rounds (calibrated under drifting load); false: two
                           ///< separately measured medians (uncalibrated)
};

/// The speedup of paired rounds: the median of the ratios default_s[k] / candidate_s[k], with
/// the distribution-free 95% interval of that median (order statistics of the ratios); nullopt
/// without a pair of positive times.
std::optional<SpeedupEstimate> paired_speedup(const PairedTiming& paired);

/// The search phase's speedup of e against the default's evaluation, the one figure that
/// reports and strategies use: e's paired rounds when it has them; the default itself (and an
/// evaluation answered by the default's artifact, same_as "(default)") is 1 with its A/A interval
/// (its rounds paired with itself) when it has one; otherwise (unpaired)
/// the default's median over e's median, the interval over the ends of e's own interval.
/// nullopt when either has no timing.
std::optional<SpeedupEstimate> speedup_against_default(const Evaluation& e, const Evaluation& default_evaluation);

}  // namespace routetune
