// Sweeps of knobs with many values (integers, families of names) for auto in wide spaces. See
// value_sweep.cpp.
#pragma once

#include <optional>
#include <vector>

#include "search/search_space.hpp"

namespace routetune {

/// Measures every value of each knob of 5-16 integer values or 12-24 other values one at a
/// time on the anchor, and picks each knob's best value (integers: from the measurements
/// smoothed along their order).
class ValueSweep {
public:
    /// The knobs of space to sweep, other than those in excluded; none when enabled is false or
    /// when their values would cost more than a tenth of the space's single changes.
    ValueSweep(const SearchSpace& space, const std::vector<std::size_t>& excluded, bool enabled);
    /// The swept dimensions.
    const std::vector<std::size_t>& dims() const { return dims_; }
    /// The points to measure: anchor with one swept knob at one of its other values.
    std::vector<Point> points(const Point& anchor) const;
    /// base with each swept knob at its best value as measured on anchor; nullopt while a
    /// sweep point is unmeasured.
    std::optional<Point> apply(const PointHistory& taken, const Point& anchor, Point base) const;

private:
    /// The best choice of dimension d from its sweep on anchor (anchor's own when no other
    /// is faster).
    std::uint32_t best_choice(const PointHistory& taken, const Point& anchor, std::size_t d) const;

    const SearchSpace& space_;
    std::vector<std::size_t> dims_;
};

}  // namespace routetune
