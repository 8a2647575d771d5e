// The live progress line of a study: pure formatting, and a writer that redraws one terminal
// line in place or, when stderr is not a terminal, prints a plain line now and then.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>

#include "routetune/study.hpp"
#include "study/confirmation_progress.hpp"

namespace routetune {

/// What the progress line shows.
struct ProgressCounters {
    std::uint64_t done = 0;                  ///< finished evaluations
    std::uint64_t total = 0;                 ///< planned candidates; 0 when unknown (shown as '?', as is a total below done)
    std::uint64_t eligible = 0;              ///< finished with status ok
    std::map<Status, std::uint64_t> failed;  ///< failures by status (zeros are left out)
    std::optional<double> best_speedup;      ///< best speedup over the default so far
    double elapsed_s = 0;
};

/// Counters of a summary so far: done = non-pending evaluations, total = candidates_total,
/// best = the largest default median / median over ok non-default routes, elapsed = wall_s.
ProgressCounters progress_counters(const StudySummary& summary);

/// "[12/40 30%] ok 9, failed 3 (build_failed 1, run_timeout 2), best 1.23× unconfirmed, 1m05s elapsed,
/// ~2m32s left"; the time left (elapsed / done × remaining) needs a known total and done > 0.
std::string format_progress(const ProgressCounters& counters);

/// "confirming 3 routes against the default: round 4/10, 1m05s elapsed" (round 0: "warm-up pass").
std::string format_confirmation(const ConfirmationProgress& progress);

/// "minimizing the winner: trial 12, removing 4 of 9 changes, 3m10s elapsed".
std::string format_minimization(const MinimizationProgress& progress);

/// Seconds as "42s", "1m05s", "2h03m" (rounded down to the shown unit).
std::string format_duration(double seconds);

/// Writes progress lines to a stream.
class ProgressWriter {
public:
    /// On a terminal every update redraws the line ("\r\x1b[K"); otherwise an update prints a
    /// line only when interval_s of elapsed time passed since the last printed one.
    ProgressWriter(std::ostream& out, bool is_tty, double interval_s = 10);

    /// Shows counters (throttled as above when not a terminal).
    void update(const ProgressCounters& counters);

    /// Shows the confirmation's progress, which replaces the search's line (throttled like
    /// update, except that the first and the last round are always printed).
    void confirming(const ConfirmationProgress& progress);

    /// Shows the minimization's progress (throttled like update, except the first trial).
    void minimizing(const MinimizationProgress& progress);

    /// Shows counters one last time and ends the line; later updates print nothing.
    void finish(const ProgressCounters& counters);

    /// Ends without a last line (an error or an interruption follows): a line drawn in place
    /// is cleared, and nothing is printed when no update was shown; later updates print nothing.
    void abandon();

private:
    std::ostream& out_;
    bool is_tty_;
    double interval_s_;
    void show(const std::string& line, double elapsed_s, bool always);

    std::optional<double> last_printed_s_;
    bool finished_ = false;
    bool drawn_ = false;
};

}  // namespace routetune
