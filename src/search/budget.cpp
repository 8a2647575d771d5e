// Budget arithmetic; the tune loop asks it before every proposal.
#include "search/budget.hpp"

#include <algorithm>

namespace routetune {

bool Budget::exhausted(std::size_t evaluated_count, double elapsed_s) const {
    if (max_routes && evaluated_count >= *max_routes) return true;
    return out_of_time(elapsed_s);
}

std::optional<std::size_t> Budget::remaining(std::size_t evaluated_count) const {
    if (!max_routes) return std::nullopt;
    return evaluated_count >= *max_routes ? 0 : *max_routes - evaluated_count;
}

std::size_t Budget::next_batch(std::size_t want, std::size_t evaluated_count, double elapsed_s) const {
    if (exhausted(evaluated_count, elapsed_s)) return 0;
    auto left = remaining(evaluated_count);
    return left ? std::min(want, *left) : want;
}

}  // namespace routetune
