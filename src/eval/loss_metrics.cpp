// The first pass reads both streams side by side: it counts them, finds the first non-finite
// value that does not match the reference, and keeps what needs no second look (the largest
// magnitudes of the output, the reference and their difference; whether any pair differs);
// exact and linf are done then. The other metrics are a second pass, a reduction over the
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

// What the first pass over both streams found.
struct FirstPass {
    std::size_t actual_count = 0;
    std::size_t reference_count = 0;
    bool mismatch = false;  ///< a non-finite value where the reference has another
    std::size_t mismatch_at = 0;
    double mismatch_actual = 0;
    double mismatch_reference = 0;
    double largest_actual = 0;      ///< over compared (finite-reference) pairs
    double largest_reference = 0;
    double largest_difference = 0;
    bool any_difference = false;
};

FirstPass first_pass(ValueSource& actual, ValueSource& reference) {
    FirstPass pass;
    bool more_actual = true, more_reference = true;
    double a = 0, r = 0;
    while (true) {
        more_actual = more_actual && actual.next(a);
        more_reference = more_reference && reference.next(r);
        if (!more_actual && !more_reference) break;
        pass.actual_count += more_actual;
        pass.reference_count += more_reference;
        if (!more_actual || !more_reference || pass.mismatch) continue;
        if ((std::isfinite(r) && !std::isfinite(a)) || (!std::isfinite(r) && !same_non_finite(a, r))) {
            pass.mismatch = true;
            pass.mismatch_at = pass.actual_count - 1;
            pass.mismatch_actual = a;
            pass.mismatch_reference = r;
        } else if (std::isfinite(r)) {
            pass.largest_actual = std::max(pass.largest_actual, std::fabs(a));
            pass.largest_reference = std::max(pass.largest_reference, std::fabs(r));
            pass.largest_difference = std::max(pass.largest_difference, std::fabs(a - r));
            pass.any_difference = pass.any_difference || a != r;
        }
    }
    return pass;
}

// The sums of the second pass, each over the compared pairs.
struct Sums {
    std::size_t off = 0;          ///< l0: pairs past atol + rtol * |r|
    double absolute = 0;          ///< l1
    double squares = 0;           ///< l2
    double scaled_reference = 0;  ///< sum of (r / largest r)^2
    double scaled_actual = 0;     ///< sum of (a / largest a)^2
    double scaled_difference = 0; ///< sum of ((a - r) / largest |a - r|)^2
    double dot = 0;               ///< sum of (a / largest a) * (r / largest r)
};

Sums second_pass(ValueSource& actual, ValueSource& reference, const FirstPass& first, double atol, double rtol) {
    actual.restart();
    reference.restart();
    Sums sums;
    double a = 0, r = 0;
    auto scaled = [](double value, double scale) { return scale == 0 ? 0.0 : value / scale; };
    while (actual.next(a) && reference.next(r)) {
        if (!std::isfinite(r)) continue;  // a matching non-finite pair: no difference
        double difference = a - r;
        if (std::fabs(difference) > atol + rtol * std::fabs(r)) ++sums.off;
        sums.absolute += std::fabs(difference);
        sums.squares += difference * difference;
        double sa = scaled(a, first.largest_actual), sr = scaled(r, first.largest_reference);
        double sd = scaled(difference, first.largest_difference);
        sums.scaled_actual += sa * sa;
        sums.scaled_reference += sr * sr;
        sums.scaled_difference += sd * sd;
        sums.dot += sa * sr;
    }
    return sums;
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
    ListValues actual_values(actual), reference_values(reference);
    return compute_loss(actual_values, reference_values, metric, atol, rtol);
}

Loss compute_loss(ValueSource& actual, ValueSource& reference, Metric metric, double atol, double rtol) {
    FirstPass first = first_pass(actual, reference);
    if (!reference.error().empty()) return {false, kInf, reference.error(), Unreadable::Reference};
    if (!actual.error().empty()) return {false, kInf, actual.error(), Unreadable::Actual};
    if (first.actual_count != first.reference_count)
        return failed("the output has " + std::to_string(first.actual_count) + " values, the reference " +
                      std::to_string(first.reference_count));
    if (first.mismatch)
        return failed("value #" + std::to_string(first.mismatch_at) + " is " + show(first.mismatch_actual) +
                      " where the reference is " + show(first.mismatch_reference));
    std::size_t n = first.actual_count;
    if (n == 0) return {true, 0, ""};
    if (metric == Metric::Exact) return {true, first.any_difference ? 1.0 : 0.0, ""};
    if (metric == Metric::Linf) return {true, first.largest_difference, ""};
    Sums sums = second_pass(actual, reference, first, atol, rtol);
    double count = static_cast<double>(n);
    auto norm = [](double scale, double scaled_squares) { return scale == 0 ? 0 : scale * std::sqrt(scaled_squares); };
    double loss = 0;
    switch (metric) {
        case Metric::L0: loss = static_cast<double>(sums.off) / count; break;
        case Metric::L1: loss = sums.absolute / count; break;
        case Metric::L2: loss = sums.squares / count; break;
        case Metric::RelL2: {
            double reference_norm = norm(first.largest_reference, sums.scaled_reference);
            loss = reference_norm == 0 ? norm(first.largest_actual, sums.scaled_actual)
                                       : norm(first.largest_difference, sums.scaled_difference) / reference_norm;
            break;
        }
        case Metric::Cos: {
            if (first.largest_actual == 0 || first.largest_reference == 0) {
                loss = first.largest_actual == first.largest_reference ? 0 : 1;
                break;
            }
            double similarity =
                std::clamp(sums.dot / std::sqrt(sums.scaled_actual * sums.scaled_reference), -1.0, 1.0);
            loss = 1 - similarity;
            break;
        }
        case Metric::Exact:
        case Metric::Linf: break;
    }
    return {true, loss, ""};
}

}  // namespace routetune
