// The search phase's one speedup figure. Paired rounds give one ratio each, default time over
// candidate time from runs adjacent in time, so a load that drifts between rounds cancels
// within each ratio; the estimate is the median ratio and its interval the order-statistic
// interval of the median (util/statistics), which needs no assumption on the ratios'
// distribution: under A/A (two identical binaries, the order alternating round by round) the
// ratios' median is 1, and the interval excludes 1 in at most 5% of studies
// (bench/aa_calibration measures it). Evaluations without pairs (paired = false, older stores)
// keep the figure reports always showed: default median over the evaluation's median. An
// evaluation answered by the default's artifact (same_as "(default)") is the default: 1.
#include "routetune/evaluation.hpp"

#include <cmath>

#include "util/statistics.hpp"

namespace routetune {

namespace {

std::optional<SpeedupEstimate> unpaired(const TimingSummary& t, double default_s) {
    if (!(default_s > 0) || !(t.median_s > 0)) return std::nullopt;
    SpeedupEstimate estimate;
    estimate.speedup = default_s / t.median_s;
    bool interval = t.ci_low_s > 0 && t.ci_high_s >= t.ci_low_s;
    estimate.ci_low = interval ? default_s / t.ci_high_s : std::nan("");
    estimate.ci_high = interval ? default_s / t.ci_low_s : std::nan("");
    return estimate;
}

}  // namespace

std::optional<SpeedupEstimate> paired_speedup(const PairedTiming& paired) {
    if (!paired.has_pairs()) return std::nullopt;
    std::vector<double> ratios;
    for (std::size_t k = 0; k < paired.default_s.size(); ++k) {
        if (paired.default_s[k] > 0 && paired.candidate_s[k] > 0) ratios.push_back(paired.default_s[k] / paired.candidate_s[k]);
    }
    if (ratios.empty()) return std::nullopt;
    Interval interval = median_ci95(ratios);
    return SpeedupEstimate{median(ratios), interval.low, interval.high, true};
}

std::optional<SpeedupEstimate> speedup_against_default(const Evaluation& e, const Evaluation& default_evaluation) {
    double default_s = default_evaluation.timing.median_s;
    if (!(default_s > 0)) return std::nullopt;
    std::optional<SpeedupEstimate> pairs = paired_speedup(e.paired);
    if (e.route == default_evaluation.route || e.same_as == "(default)") {  // the default's own answer
        if (!pairs) return unpaired(e.timing, default_s);
        return SpeedupEstimate{1, pairs->ci_low, pairs->ci_high, true};  // 1 by definition; the A/A spread
    }
    return pairs ? pairs : unpaired(e.timing, default_s);
}

}  // namespace routetune
