// A timing summary is the samples plus util's median and order-statistic interval of it.
#include "routetune/evaluation.hpp"
#include "util/statistics.hpp"

namespace routetune {

TimingSummary summarize(const std::vector<double>& samples) {
    TimingSummary summary;
    summary.samples_s = samples;
    summary.median_s = median(samples);
    Interval interval = median_ci95(samples);
    summary.ci_low_s = interval.low;
    summary.ci_high_s = interval.high;
    return summary;
}

}  // namespace routetune
