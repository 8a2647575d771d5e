// Growth: auto's screening in wide spaces (400 knobs or more: kGrowFrom in auto_strategy.cpp),
// where a gain is spread over many knobs. See growth_search.cpp for how it works.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_set>
#include <vector>

#include "search/search_space.hpp"

namespace routetune {

/// Grows a route by every knob value that builds and does not cost time, group by group, and
/// cuts a group that fails or is slower in halves until the value to blame is alone. A pure
/// function of the history (it is replayed on every call), so `--continue` resumes it.
class GrowthSearch {
public:
    /// Over the non-default values of dims (the knobs growth may change) of space; seed orders
    /// them.
    GrowthSearch(const SearchSpace& space, std::vector<std::size_t> dims, std::uint64_t seed);
    /// Up to max_count points to evaluate next, grown from start (a finished Ok point of
    /// taken); empty when growth is done or all it could propose is being evaluated.
    std::vector<Point> propose(const PointHistory& taken, const Point& start, std::size_t max_count) const;
    /// The route growth has grown from start so far (start itself at first).
    Point incumbent(const PointHistory& taken, const Point& start) const;

private:
    struct State;
    /// The screening tier of a value: 1 for an integer knob (a size, a threshold, a count: it
    /// acts smoothly, so its values do much the same), 0 for the others (each value a distinct
    /// transformation). Tier 0 is screened first, and its suspect groups are cut before new
    /// groups of tier 1 are built.
    std::size_t tier(std::uint64_t key) const;
    /// An integer knob's extreme values (the lowest and the highest of its non-default values):
    /// the one farther from the default in rank (a seeded coin on a tie) is tried first, the
    /// other as its first swap; effects of a size or a threshold are largest far from the default.
    struct IntegerKnob {
        std::uint32_t first, second;
    };
    /// Knob d's extremes when its values and default are all integers (three choices or more).
    std::optional<IntegerKnob> integer_knob(std::size_t d) const;
    /// Orders a shuffled pool (stably): the values of other knobs, then each integer knob's first
    /// extreme, then its second, then its other values.
    void order_pool(std::vector<std::uint64_t>& values) const;
    /// The state growth has reached after the finished evaluations of taken.
    State replay(const PointHistory& taken, const Point& start) const;
    /// Starts the next pass over the values: every one that the incumbent does not hold and
    /// that is not blamed, in a new seeded order.
    void next_round(State& state) const;
    /// Reads one finished evaluation into state, as a test of the values it adds to the
    /// nearest of the latest incumbents (growable: the dimensions growth may change).
    void read(State& state, const PointHistory::Entry& entry, const std::vector<bool>& growable) const;
    /// entry, clean, joins the incumbent (its base is the current one) or the values to merge.
    void accept(State& state, std::size_t base_index, const PointHistory::Entry& entry,
                const std::vector<std::uint64_t>& changes) const;
    /// The incumbent with the values to merge and the next group of values from the pool
    /// (their keys appended to keys), or the incumbent itself when none is left.
    Point next_group(const State& state, const std::unordered_set<std::uint64_t>& in_flight,
                     std::vector<std::uint64_t>& keys) const;

    const SearchSpace& space_;
    std::vector<std::size_t> dims_;
    std::uint64_t seed_;
    std::vector<std::optional<IntegerKnob>> integer_;  // by dimension
};

}  // namespace routetune
