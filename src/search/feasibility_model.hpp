// Which knob values make a route fail (any status but Ok), learnt from finished evaluations.
#pragma once

#include <vector>

#include "search/search_space.hpp"

namespace routetune {

/// A per-value estimate of P(a route with this value does not fail), by group testing: every
/// value is a priori "bad" (fails any route it is in) with probability prior_bad; an Ok route
/// clears its values; a failed route blames its values that are not cleared, sharply when
/// few are (one uncleared value in a failed route is almost surely bad). Given a context (the
/// route a search builds on), a failed route also blames its values that differ from the
/// context, cleared or not: an Ok context plus changes that fail means one of the changes
/// fails *here* (e.g. -fsection-anchors=on, fine alone, fails next to -ftoplevel-reorder=off).
class FeasibilityModel {
public:
    /// Learns from the finished observations of history; context is optional.
    FeasibilityModel(const SearchSpace& space, const PointHistory& history, double prior_bad = 0.1,
                     const Point* context = nullptr);
    /// P(choice c of dimension d does not fail a route); 1 for the default choice.
    double value(std::size_t d, std::uint32_t c) const;
    /// P(point does not fail): the product over its non-default choices.
    double route(const Point& point) const;

private:
    std::vector<std::vector<double>> log_odds_bad_;
    std::vector<std::vector<double>> feasible_;
};

}  // namespace routetune
