// Growth: auto's screening in wide spaces (800 knobs or more), where a gain is spread over many
// knobs. See growth_search.cpp for how it works.
#pragma once

#include <cstdint>
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
    /// True when growth has nothing left to try: every value was tested and every suspect
    /// group cut down to its culprit.
    bool finished(const PointHistory& taken, const Point& start) const;

    /// The route growth has grown from start so far (start itself at first).
    Point incumbent(const PointHistory& taken, const Point& start) const;

private:
    struct State;
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
};

}  // namespace routetune
