// Robust summary statistics for timing samples: median, mean, spread, a distribution-free
// confidence interval of the median, and the ratio of two medians with a bootstrap interval.
// Every function is deterministic: the same input always gives the same output.
#pragma once

#include <cstdint>
#include <vector>

namespace routetune {

/// The median (mean of the two middle values for an even count); NaN for no samples.
double median(std::vector<double> samples);

/// The arithmetic mean; NaN for no samples.
double mean(const std::vector<double>& samples);

/// The median absolute deviation from the median (unscaled); NaN for no samples.
double median_absolute_deviation(const std::vector<double>& samples);

/// (largest - smallest) / smallest: how far apart values lie (e.g. the medians of several builds);
/// 0 for fewer than two values or a smallest value not above 0.
double relative_spread(const std::vector<double>& values);

/// A confidence interval.
struct Interval {
    double low = 0;
    double high = 0;
    bool exact = true;  ///< false when the sample was too small for the requested coverage
};

/// A 95% confidence interval of the population median from order statistics: [x(k), x(n+1-k)]
/// (1-based, sorted) for the largest k with P(Binomial(n, 1/2) <= k-1) <= 0.025, which covers
/// the median with probability >= 95% for any continuous distribution. For n < 6 no such k
/// exists: the interval is [min, max] with exact = false. No samples: NaN bounds, exact = false.
Interval median_ci95(const std::vector<double>& samples);

/// A ratio of two medians with its 95% interval.
struct RatioEstimate {
    double ratio = 0;  ///< median(numerator) / median(denominator)
    double low = 0;    ///< 2.5th percentile of the bootstrap ratios
    double high = 0;   ///< 97.5th percentile of the bootstrap ratios
};

/// median(numerator) / median(denominator) with a percentile-bootstrap 95% interval: both samples
/// are resampled independently with replacement `resamples` times from a fixed-seed generator
/// (so the result is reproducible); percentiles interpolate linearly between order statistics.
/// NaN everywhere when a sample is empty. Speedup of B over A is ratio_of_medians(A, B).
RatioEstimate ratio_of_medians(const std::vector<double>& numerator, const std::vector<double>& denominator,
                               int resamples = 2000, std::uint64_t seed = 0x5eed0f7a11e5ULL);

}  // namespace routetune
