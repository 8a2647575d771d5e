// The spread is the width of an interval relative to 1: with paired timing the default's A/A
// interval (its rounds paired with more runs of itself, speedup_against_default), the interval
// an identical route would show; unpaired, the default's own 95% interval over its median.
#include "report/noise_caution.hpp"

#include <cmath>
#include <cstdio>

#include "report/report_row.hpp"

namespace routetune {

std::optional<std::string> noise_caution(const Evaluation& default_evaluation, const TimingSpec& timing) {
    if (default_evaluation.status != Status::Ok) return std::nullopt;
    std::optional<SpeedupEstimate> aa = speedup_against_default(default_evaluation, default_evaluation);
    if (!aa || !std::isfinite(aa->ci_low) || !std::isfinite(aa->ci_high)) return std::nullopt;
    double width = aa->ci_high - aa->ci_low;
    if (!(width > timing.min_gain)) return std::nullopt;
    char interval[64];
    std::snprintf(interval, sizeof interval, "[%.3f, %.3f]", aa->ci_low, aa->ci_high);
    std::string what = aa->paired ? "the default's paired A/A interval (its runs paired with more of its own) is " +
                                        std::string(interval) + ", " + format_percent(width) + " wide"
                                  : "the default's own 95% interval is " + format_percent(width) + " of its median";
    std::string text = what + ", wider than min_gain " + format_percent(timing.min_gain) +
                       ": this machine is too noisy to tell a gain that small; raise [timing] repeats or quiet the machine";
    if (timing.source != "reported") text += ", or time the program's own work ([timing] source = \"reported\")";
    return text;
}

}  // namespace routetune
