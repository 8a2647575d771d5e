// One pass checks lengths and non-finite values; then each metric is a reduction over the
// finite pairs (matching non-finite pairs contribute a zero difference). Norms are computed on
// values scaled by the largest magnitude, so squares of large values do not overflow; cos
// divides by sqrt(||a||^2 * ||r||^2) so identical inputs give exactly 0.
#include "eval/loss_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace routetune {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Loss failed(std::string message) { return {false, kInf, std::move(message)}; }

std::string show(double value) {
    std::ostringstream text;
    text.precision(17);
    text << value;
    return text.str();
}

bool same_non_finite(double a, double r) { return (std::isnan(a) && std::isnan(r)) || a == r; }

/// Largest magnitude of value(0..n).
template <typename Value>
double largest_magnitude(std::size_t n, Value value) {
    double largest = 0;
    for (std::size_t i = 0; i < n; ++i) largest = std::max(largest, std::fabs(value(i)));
    return largest;
}

/// Euclidean norm of value(0..n), scaled against overflow.
template <typename Value>
double norm(std::size_t n, Value value) {
    double scale = largest_magnitude(n, value);
    if (scale == 0) return 0;
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += (value(i) / scale) * (value(i) / scale);
    return scale * std::sqrt(sum);
}

}  // namespace

std::string_view to_string(Metric metric) {
    switch (metric) {
        case Metric::Exact: return "exact";
        case Metric::L0: return "l0";
        case Metric::L1: return "l1";
        case Metric::L2: return "l2";
        case Metric::Linf: return "linf";
        case Metric::RelL2: return "rel_l2";
        case Metric::Cos: return "cos";
    }
    return "exact";
}

std::optional<Metric> metric_from_string(std::string_view text) {
    for (Metric metric : {Metric::Exact, Metric::L0, Metric::L1, Metric::L2, Metric::Linf, Metric::RelL2, Metric::Cos}) {
        if (to_string(metric) == text) return metric;
    }
    return std::nullopt;
}

Loss compute_loss(const std::vector<double>& actual, const std::vector<double>& reference, Metric metric,
                  double atol, double rtol) {
    if (actual.size() != reference.size())
        return failed("the output has " + std::to_string(actual.size()) + " values, the reference " +
                      std::to_string(reference.size()));
    std::size_t n = actual.size();
    std::vector<bool> compared(n, true);
    for (std::size_t i = 0; i < n; ++i) {
        double a = actual[i];
        double r = reference[i];
        if (std::isfinite(r) && !std::isfinite(a))
            return failed("value #" + std::to_string(i) + " is " + show(a) + " where the reference is " + show(r));
        if (!std::isfinite(r)) {
            if (!same_non_finite(a, r))
                return failed("value #" + std::to_string(i) + " is " + show(a) + " where the reference is " + show(r));
            compared[i] = false;
        }
    }
    if (n == 0) return {true, 0, ""};
    auto a_at = [&](std::size_t i) { return compared[i] ? actual[i] : 0.0; };
    auto r_at = [&](std::size_t i) { return compared[i] ? reference[i] : 0.0; };
    auto diff_at = [&](std::size_t i) { return compared[i] ? actual[i] - reference[i] : 0.0; };
    double count = static_cast<double>(n);
    double loss = 0;
    switch (metric) {
        case Metric::Exact:
            for (std::size_t i = 0; i < n; ++i) {
                if (a_at(i) != r_at(i)) loss = 1;
            }
            break;
        case Metric::L0: {
            std::size_t off = 0;
            for (std::size_t i = 0; i < n; ++i) {
                if (std::fabs(diff_at(i)) > atol + rtol * std::fabs(r_at(i))) ++off;
            }
            loss = static_cast<double>(off) / count;
            break;
        }
        case Metric::L1:
            for (std::size_t i = 0; i < n; ++i) loss += std::fabs(diff_at(i));
            loss /= count;
            break;
        case Metric::L2:
            for (std::size_t i = 0; i < n; ++i) loss += diff_at(i) * diff_at(i);
            loss /= count;
            break;
        case Metric::Linf:
            loss = largest_magnitude(n, diff_at);
            break;
        case Metric::RelL2: {
            double reference_norm = norm(n, r_at);
            loss = reference_norm == 0 ? norm(n, a_at) : norm(n, diff_at) / reference_norm;
            break;
        }
        case Metric::Cos: {
            double a_scale = largest_magnitude(n, a_at);
            double r_scale = largest_magnitude(n, r_at);
            if (a_scale == 0 || r_scale == 0) {
                loss = a_scale == r_scale ? 0 : 1;
                break;
            }
            double dot = 0, a_squares = 0, r_squares = 0;
            for (std::size_t i = 0; i < n; ++i) {
                double a = a_at(i) / a_scale;
                double r = r_at(i) / r_scale;
                dot += a * r;
                a_squares += a * a;
                r_squares += r * r;
            }
            double similarity = std::clamp(dot / std::sqrt(a_squares * r_squares), -1.0, 1.0);
            loss = 1 - similarity;
            break;
        }
    }
    return {true, loss, ""};
}

}  // namespace routetune
