// Median confidence interval: the number of samples below the population median is
// Binomial(n, 1/2) for any continuous distribution, so [x(k), x(n+1-k)] covers the median with
// probability 1 - 2·P(B <= k-1); the binomial CDF is summed term by term, each term kept as a
// logarithm so that large n neither overflows nor underflows. The ratio interval is a percentile bootstrap driven by splitmix64, whose
// output is fully specified (unlike std:: distributions), so results agree across platforms.
#include "util/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace routetune {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// splitmix64: a tiny fully specified generator.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    /// A value in [0, n), by the multiply-shift reduction.
    std::size_t below(std::size_t n) {
        return static_cast<std::size_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
    }

private:
    std::uint64_t state_;
};

double median_of_sorted(const std::vector<double>& sorted) {
    std::size_t n = sorted.size();
    if (n == 0) return kNaN;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/// Linear interpolation between order statistics at fraction p of sorted (R's type 7).
double percentile_of_sorted(const std::vector<double>& sorted, double p) {
    double position = p * static_cast<double>(sorted.size() - 1);
    std::size_t below = static_cast<std::size_t>(std::floor(position));
    std::size_t above = std::min(below + 1, sorted.size() - 1);
    double weight = position - static_cast<double>(below);
    return sorted[below] + weight * (sorted[above] - sorted[below]);
}

double resampled_median(const std::vector<double>& samples, SplitMix64& rng, std::vector<double>& scratch) {
    scratch.resize(samples.size());
    for (double& value : scratch) value = samples[rng.below(samples.size())];
    std::sort(scratch.begin(), scratch.end());
    return median_of_sorted(scratch);
}

}  // namespace

double median(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return median_of_sorted(samples);
}

double mean(const std::vector<double>& samples) {
    if (samples.empty()) return kNaN;
    return std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
}

double relative_spread(const std::vector<double>& values) {
    if (values.size() < 2) return 0;
    auto [low, high] = std::minmax_element(values.begin(), values.end());
    return *low > 0 ? (*high - *low) / *low : 0;
}

double median_absolute_deviation(const std::vector<double>& samples) {
    double center = median(samples);
    std::vector<double> deviations;
    deviations.reserve(samples.size());
    for (double value : samples) deviations.push_back(std::fabs(value - center));
    return median(std::move(deviations));
}

Interval median_ci95(const std::vector<double>& samples) {
    if (samples.empty()) return {kNaN, kNaN, false};
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    std::size_t n = sorted.size();
    // log_term = log(C(n, j) / 2^n), advanced by log((n - j) / (j + 1)); cumulative = P(B <= j).
    double log_term = -static_cast<double>(n) * std::log(2.0);
    double cumulative = std::exp(log_term);
    std::size_t k = 0;
    for (std::size_t j = 0; j < n / 2 && cumulative <= 0.025; ++j) {
        k = j + 1;
        log_term += std::log(static_cast<double>(n - j) / static_cast<double>(j + 1));
        cumulative += std::exp(log_term);
    }
    if (k == 0) return {sorted.front(), sorted.back(), false};
    return {sorted[k - 1], sorted[n - k], true};
}

RatioEstimate ratio_of_medians(const std::vector<double>& numerator, const std::vector<double>& denominator,
                               int resamples, std::uint64_t seed) {
    if (numerator.empty() || denominator.empty()) return {kNaN, kNaN, kNaN};
    RatioEstimate estimate;
    estimate.ratio = median(numerator) / median(denominator);
    if (resamples <= 0) return {estimate.ratio, estimate.ratio, estimate.ratio};
    SplitMix64 rng(seed);
    std::vector<double> ratios;
    ratios.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> scratch;
    for (int i = 0; i < resamples; ++i) {
        double top = resampled_median(numerator, rng, scratch);
        double bottom = resampled_median(denominator, rng, scratch);
        ratios.push_back(top / bottom);
    }
    std::sort(ratios.begin(), ratios.end());
    estimate.low = percentile_of_sorted(ratios, 0.025);
    estimate.high = percentile_of_sorted(ratios, 0.975);
    return estimate;
}

}  // namespace routetune
