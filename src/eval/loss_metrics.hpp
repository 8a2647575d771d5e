// Loss metrics between an output and its reference, as streams of numbers read twice at most
// (eval/value_source.hpp), so the memory of a comparison does not grow with the outputs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/value_source.hpp"

namespace routetune {

/// How far an output may drift from its reference.
enum class Metric { Exact, L0, L1, L2, Linf, RelL2, Cos };

/// "exact", "l0", "l1", "l2", "linf", "rel_l2", "cos".
std::string_view to_string(Metric metric);
/// The inverse of to_string; nullopt for unknown text.
std::optional<Metric> metric_from_string(std::string_view text);

/// Which stream stopped at a value it could not read.
enum class Unreadable { None, Actual, Reference };

/// A computed loss, or why the output cannot pass at all.
struct Loss {
    bool ok = false;      ///< false: lengths differ, or a non-finite value where the reference has another
    double value = 0;     ///< the loss; +inf when !ok
    std::string message;  ///< why !ok
    Unreadable unreadable = Unreadable::None;  ///< a stream's error (message is its error()); the reference's first
};

/// The loss of actual against reference under metric. exact: 0 if every value equals its
/// reference, else 1. l0: fraction of elements with |a-r| > atol + rtol*|r|. l1: mean |a-r|.
/// l2: mean (a-r)^2. linf: max |a-r|. rel_l2: ||a-r|| / ||r|| (||a|| when ||r|| = 0).
/// cos: 1 - a.r / (||a|| ||r||) (0 when both are zero, 1 when one is). A position where the
/// reference is NaN or infinite must hold the same non-finite value and then counts as equal;
/// a NaN or infinity where the reference is finite (or a different non-finite value) makes
/// the loss +inf with ok = false, as does a length mismatch. Empty lists have loss 0.
Loss compute_loss(const std::vector<double>& actual, const std::vector<double>& reference, Metric metric,
                  double atol = 0, double rtol = 0);

/// The same loss over two streams, each read at most twice and restarted in between; a stream
/// that stops at an unreadable value makes the loss +inf with ok = false and unreadable set
/// (the reference's error wins over the output's, which wins over every other failure).
Loss compute_loss(ValueSource& actual, ValueSource& reference, Metric metric, double atol = 0, double rtol = 0);

}  // namespace routetune
