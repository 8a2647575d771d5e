// The space a strategy searches, derived from an expression: one dimension per varying knob,
// whose choice 0 is "the knob's default" (the knob is left unset, as in the baseline) and
// whose choices 1..n are the knob's listed values other than its default. Fixed knobs are set
// in every route. A point (one choice per dimension) maps to exactly one canonical route, and
// every route of the expression (including full-mode routes that spell out the default value)
// maps back to its point, so strategies can tell equivalent routes apart from new ones.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "routetune/big_count.hpp"
#include "routetune/expression.hpp"
#include "routetune/route.hpp"
#include "routetune/strategy.hpp"

namespace routetune {

class SearchRng;

/// One choice per varying knob; 0 is the knob's default.
using Point = std::vector<std::uint32_t>;

/// Hash of a point, for unordered containers.
struct PointHash {
    std::size_t operator()(const Point& point) const;
};

/// The search space of an expression.
class SearchSpace {
public:
    /// Builds the space; throws UsageError when a varying knob has more than 2^20 values.
    explicit SearchSpace(const Expression& expression);

    /// Number of varying knobs.
    std::size_t dimensions() const { return dims_.size(); }
    /// Number of choices of dimension d (1 + its non-default values).
    std::uint32_t choices(std::size_t d) const { return static_cast<std::uint32_t>(dims_[d].values.size()) + 1; }
    /// The knob of dimension d.
    const std::string& knob(std::size_t d) const { return dims_[d].knob; }
    /// The value of choice c >= 1 of dimension d.
    const std::string& value(std::size_t d, std::uint32_t c) const { return dims_[d].values[c - 1]; }
    /// The knob's default value (choice 0); "" when the catalog does not know it.
    const std::string& default_value(std::size_t d) const { return dims_[d].default_value; }
    /// The all-default point (the baseline route).
    Point baseline() const { return Point(dims_.size(), 0); }
    /// The point of a mixed-radix index over the choices (last dimension fastest); index must
    /// be below the number of points.
    Point decode(std::uint64_t index) const;
    /// Number of non-default choices over all dimensions (the single changes of fast).
    std::size_t single_changes() const;
    /// The number of points, exactly.
    BigCount size() const;
    /// The canonical route of point: fixed knobs, and each non-default choice.
    Route route(const Point& point) const;
    /// The point of route, or nullopt when route is not in the expression's space.
    std::optional<Point> point(const Route& route) const;
    /// Number of non-default choices of point.
    static std::size_t changes(const Point& point);
    /// point with `changes` dimensions drawn from rng (with replacement), each moved to another
    /// of its choices, uniformly: the one mutation of the evolve and auto strategies.
    Point mutate(Point point, SearchRng& rng, std::size_t changes) const;

private:
    struct Dimension {
        std::string knob;
        std::string default_value;
        std::vector<std::string> values;  // non-default values, in list order
        std::unordered_map<std::string, std::uint32_t> index;  // value -> choice (default -> 0)
    };
    std::vector<Dimension> dims_;
    std::vector<std::pair<std::string, std::string>> fixed_;
};

/// What strategies know of the history, on points: which points are taken (any observation,
/// pending included, so it is never proposed again) and the finished ones in order.
struct PointHistory {
    struct Entry {
        Point point;
        const Observation* observation;
    };
    std::vector<Entry> finished;  ///< in-space, non-pending observations, in history order
    std::unordered_map<Point, const Observation*, PointHash> taken;

    /// Maps history onto space.
    PointHistory(const SearchSpace& space, const SearchHistory& history);
    /// True when point has an observation.
    bool contains(const Point& point) const { return taken.count(point) != 0; }
    /// The finished observation of point, or nullptr.
    const Observation* finished_observation(const Point& point) const;
};

}  // namespace routetune
