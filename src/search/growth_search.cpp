// Growth, auto's screening in wide spaces. Why: when the gain is spread over many knobs (many
// values of 2-5% each, pairs and triples of values that gain only together), a screening that
// estimates each value's effect needs several clean builds per value, and a group of random
// values fails as soon as it holds one of the 1-3% of values that break the build. Most values
// do nothing, so holding them costs nothing: growth instead keeps every value that builds and
// does not cost time. It starts from the anchor (the incumbent) and, one group of new values
// at a time, builds the incumbent plus the group. A group that builds and is not slower than
// its base beyond its noise (2.5 sd of the difference) becomes the new incumbent, so gains add
// up and a pair or triple pays as soon as its last member joins. The incumbent's log time is
// not its last measurement but an estimate filtered along the chain of incumbents (a Kalman
// step: a clean group moves it by 1.5% a priori), so a lucky measurement does not make every
// later group look slower. A group whose artifact is its base's (the study measured it once: the
// observation's figures are the base's own) changed nothing: it is clean and adds no measurement
// to the filter. A group that fails or is slower holds a culprit: it is cut in
// halves, the first half is built on the incumbent (a clean half joins it; the culprit is then
// in the second half; a bad first half sends the second back to the pool untested), until the
// culprit is alone and blamed, never proposed again. New groups come before halves, larger
// halves before smaller ones: the values a build tests fall with every cut. The first pass
// takes one value per knob, in a seeded order; later values of a knob replace the incumbent's
// value (a swap) only when that is not slower at all, so a value that gains is not swapped out
// by noise. Groups hold values of one kind (new knobs or swaps) and of one tier, and at most one
// value per knob. Integer knobs (sizes, thresholds, counts: they act smoothly, so their values
// do much the same) form a later tier than flags and names: they are screened after them, each
// from its extreme farthest from the default, and a suspect group of flags is cut before a new
// group of integer knobs is built.
// When every value has been tried, a second pass retries those the incumbent does not hold, in
// new company. Everything is replayed from the history on every call: a finished evaluation is
// read as a test of the values in which it differs from the latest incumbents (the nearest of
// the last four), so results that come back out of order, from parallel builds, still count; a
// clean group whose base is no longer the incumbent is merged into the next group (a value of
// it whose knob the incumbent has since set to another value is tried again as a swap). A result's
// noise is judged with the median interval of the results up to it, so the replay of a history
// is the replay of its prefix plus the new results: a later result never changes how an earlier
// one was read (docs/benchmarks.md, issue 27, sixth round: with the median of the whole history,
// end-to-end chains collapsed).
#include "search/growth_search.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_set>

#include "search/search_rng.hpp"
#include "util/text.hpp"

namespace routetune {

namespace {

using Key = std::uint64_t;  // (dimension << 32) | choice

constexpr std::size_t kGroup = 16;        // new values per group
constexpr std::size_t kBasesSearched = 4;  // a result is read against this many latest incumbents
constexpr double kTolerance = 2.5;  // slower: beyond this many sd of the difference from the base
constexpr double kStepSd = 0.015;   // how far a clean group moves the incumbent's log time, a priori
constexpr double kFallbackHalfWidth = 0.01;
constexpr double kHalfWidthSds = 1.5;  // an interval's half width, in sd: a median's interval from 3-5 repeats covers 75-94%
constexpr std::size_t kSmallSuspect = 3;  // a later pass starts when no suspect group is larger
constexpr int kRounds = 2;  // passes over the values; a later pass retries those not held, in new company

Key key_of(std::size_t d, std::uint32_t c) { return (static_cast<Key>(d) << 32) | c; }
std::size_t dim_of(Key key) { return static_cast<std::size_t>(key >> 32); }
std::uint32_t choice_of(Key key) { return static_cast<std::uint32_t>(key & 0xffffffffULL); }

/// The half width of obs's interval in log time, or 0 when it has none.
double half_width(const Observation& obs) {
    return obs.ci_low_s > 0 && obs.ci_high_s > obs.ci_low_s ? std::log(obs.ci_high_s / obs.ci_low_s) / 2 : 0.0;
}

/// The variance of a measured log time: from the larger of obs's own interval and typical (the
/// median interval of the history: an interval from a few repeats can be narrow by chance, and
/// a tolerance built on it would call a group slower on noise alone).
double measurement_variance(const Observation& obs, double typical) {
    double half = std::max(half_width(obs), typical);
    if (half <= 0) half = kFallbackHalfWidth;
    return (half / kHalfWidthSds) * (half / kHalfWidthSds);
}

/// The median half width of the Ok observations noted so far. Growth reads each result with the
/// median of the results up to it, so a later result never changes how an earlier one was read:
/// with the median of the whole history, a later interval moved the median, an early group read
/// again came out the other way, and the replayed chain left the bases the groups since had been
/// built on (an end-to-end study's chain fell from 47 incumbents to 17 between two calls, and
/// grew on from a route 20% slower than its best).
class RunningHalfWidth {
public:
    /// Notes obs's half width when it is Ok and has an interval.
    void note(const Observation& obs) {
        double half = half_width(obs);
        if (obs.status == Status::Ok && half > 0) sorted_.insert(std::upper_bound(sorted_.begin(), sorted_.end(), half), half);
    }
    /// The median of the noted half widths, or 0 before the first.
    double median() const { return sorted_.empty() ? 0 : sorted_[sorted_.size() / 2]; }

private:
    std::vector<double> sorted_;
};

std::vector<Key> first_half(const std::vector<Key>& group) {
    return {group.begin(), group.begin() + static_cast<std::ptrdiff_t>((group.size() + 1) / 2)};
}

std::vector<Key> second_half(const std::vector<Key>& group) {
    return {group.begin() + static_cast<std::ptrdiff_t>((group.size() + 1) / 2), group.end()};
}

bool same_set(std::vector<Key> a, std::vector<Key> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
}

}  // namespace

struct GrowthSearch::State {
    struct Base {
        Point point;
        double log_time;  // estimated: its measurements filtered along the chain
        double variance;  // of that estimate
        std::string measured_as;  // whose measurement its figures are (measured_as of its observation)
    };
    std::vector<Base> chain;                  // incumbents; the current one last
    std::deque<Key> pool;                     // values to test, next first (left ones are skipped)
    std::vector<std::vector<Key>> suspects;   // groups known to hold a culprit
    std::unordered_set<Key> cleared, blamed, left;  // left: taken from the pool
    std::vector<Key> merge;                   // clean values not yet in the incumbent

    int round = 1;
    double typical = 0;  // the median half width of the intervals of the results read so far (log time)

    const Point& incumbent() const { return chain.back().point; }
    /// True when a suspect group is larger than kSmallSuspect.
    bool large_suspect() const {
        return std::any_of(suspects.begin(), suspects.end(), [](const auto& g) { return g.size() > kSmallSuspect; });
    }
    /// True when a value of the pool is still to be tested.
    bool pool_has_work() const {
        const Point& now = incumbent();
        return std::any_of(pool.begin(), pool.end(), [&](Key k) {
            return !left.count(k) && !blamed.count(k) && now[dim_of(k)] != choice_of(k);
        });
    }
    /// Blames the value of a one-value suspect group.
    void blame(Key key) { blamed.insert(key); }

    /// Values to merge whose knob the incumbent has since set to another value cannot be merged
    /// (a group adds only knobs the incumbent leaves at their default): they go back to the
    /// front of the pool, to be tested again as swaps on the incumbent. Left in the merge list,
    /// they were never built again (in an end-to-end study 60 to 100 such values, most of them
    /// integer params, sat there for the last 100 evaluations).
    void requeue_swaps() {
        const Point& now = incumbent();
        std::erase_if(merge, [&](Key k) {
            if (now[dim_of(k)] == 0 || now[dim_of(k)] == choice_of(k)) return false;
            left.erase(k);
            cleared.erase(k);
            pool.push_front(k);
            return true;
        });
    }

    /// The group whose first half is fresh came back clean: its culprit is in the second half.
    void narrow_after_clean(const std::vector<Key>& fresh) {
        for (auto it = suspects.begin(); it != suspects.end(); ++it) {
            if (!same_set(first_half(*it), fresh)) continue;
            std::vector<Key> rest = second_half(*it);
            if (rest.size() == 1) {
                blame(rest.front());
                suspects.erase(it);
            } else {
                *it = std::move(rest);
            }
            return;
        }
    }

    /// fresh failed or was slower: it holds a culprit.
    void reject(const std::vector<Key>& fresh) {
        if (fresh.empty()) return;  // only values that built elsewhere: a conflict growth cannot place
        for (std::size_t i = 0; i < suspects.size(); ++i) {
            if (!same_set(first_half(suspects[i]), fresh)) continue;
            std::vector<Key> rest = second_half(suspects[i]);
            for (auto it = rest.rbegin(); it != rest.rend(); ++it) {
                left.erase(*it);
                pool.push_front(*it);
            }
            suspects[i] = fresh;
            if (fresh.size() == 1) {
                blame(fresh.front());
                suspects.erase(suspects.begin() + static_cast<std::ptrdiff_t>(i));
            }
            return;
        }
        if (fresh.size() == 1) blame(fresh.front());
        else suspects.push_back(fresh);
    }
};

GrowthSearch::GrowthSearch(const SearchSpace& space, std::vector<std::size_t> dims, std::uint64_t seed)
    : space_(space), dims_(std::move(dims)), seed_(seed), integer_(space.dimensions()) {
    for (std::size_t d : dims_) integer_[d] = integer_knob(d);
}

std::optional<GrowthSearch::IntegerKnob> GrowthSearch::integer_knob(std::size_t d) const {
    std::vector<std::pair<long long, std::uint32_t>> order;
    for (std::uint32_t c = 0; c < space_.choices(d); ++c) {
        auto number = parse_integer(c == 0 ? space_.default_value(d) : space_.value(d, c));
        if (!number) return std::nullopt;
        order.emplace_back(*number, c);
    }
    if (order.size() < 3) return std::nullopt;
    std::sort(order.begin(), order.end());
    std::size_t def = 0;
    while (order[def].second != 0) ++def;
    std::size_t low = def == 0 ? 1 : 0, high = def == order.size() - 1 ? order.size() - 2 : order.size() - 1;
    std::size_t below = def - std::min(def, low), above = high > def ? high - def : 0;
    bool high_first = above != below ? above > below : SearchRng(seed_, 0x6578747265ULL + d).below(2) == 0;
    return high_first ? IntegerKnob{order[high].second, order[low].second} : IntegerKnob{order[low].second, order[high].second};
}

std::size_t GrowthSearch::tier(std::uint64_t key) const { return integer_[dim_of(key)] ? 1 : 0; }

void GrowthSearch::order_pool(std::vector<Key>& values) const {
    auto rank = [&](Key key) {
        const auto& knob = integer_[dim_of(key)];
        if (!knob) return 0;
        return choice_of(key) == knob->first ? 1 : choice_of(key) == knob->second ? 2 : 3;
    };
    std::stable_sort(values.begin(), values.end(), [&](Key a, Key b) { return rank(a) < rank(b); });
}

void GrowthSearch::next_round(State& state) const {
    ++state.round;
    state.left.clear();
    state.pool.clear();
    const Point& now = state.incumbent();
    std::vector<Key> values;
    for (std::size_t d : dims_)
        for (std::uint32_t c = 1; c < space_.choices(d); ++c)
            if (c != now[d] && !state.blamed.count(key_of(d, c))) values.push_back(key_of(d, c));
    SearchRng rng(seed_, 0x67726f77ULL + static_cast<std::uint64_t>(state.round));
    for (std::size_t i = values.size(); i > 1; --i) std::swap(values[i - 1], values[rng.below(i)]);
    order_pool(values);
    state.pool.assign(values.begin(), values.end());
}

GrowthSearch::State GrowthSearch::replay(const PointHistory& taken, const Point& start) const {
    State state;
    const Observation* origin = taken.finished_observation(start);
    RunningHalfWidth typical;
    std::size_t origin_at = 0;
    while (origin_at < taken.finished.size() && taken.finished[origin_at].point != start) ++origin_at;
    for (std::size_t i = 0; i <= origin_at && i < taken.finished.size(); ++i) typical.note(*taken.finished[i].observation);
    state.typical = typical.median();
    state.chain.push_back({start, std::log(origin->median_s), measurement_variance(*origin, state.typical), measured_as(*origin)});
    SearchRng rng(seed_, 0x67726f77ULL);
    std::vector<Key> first, later, later_tier;
    for (std::size_t d : dims_) {
        std::vector<Key> values;
        for (std::uint32_t c = 1; c < space_.choices(d); ++c)
            if (c != start[d]) values.push_back(key_of(d, c));
        if (values.empty()) continue;
        std::size_t pick = start[d] == 0 ? rng.below(values.size()) : values.size();
        for (std::size_t i = 0; i < values.size(); ++i) (i == pick ? first : later).push_back(values[i]);
    }
    for (auto* list : {&first, &later})
        for (std::size_t i = list->size(); i > 1; --i) std::swap((*list)[i - 1], (*list)[rng.below(i)]);
    std::vector<Key> values;
    for (auto* list : {&first, &later})
        for (Key k : *list) (tier(k) == 0 ? values : later_tier).push_back(k);
    order_pool(later_tier);
    values.insert(values.end(), later_tier.begin(), later_tier.end());
    state.pool.assign(values.begin(), values.end());
    std::vector<bool> growable(space_.dimensions(), false);
    for (std::size_t d : dims_) growable[d] = true;
    for (std::size_t i = 0; i < taken.finished.size(); ++i) {
        const auto& entry = taken.finished[i];
        if (i > origin_at) typical.note(*entry.observation), state.typical = typical.median();
        if (state.chain.size() == 1) state.chain[0].variance = measurement_variance(*origin, state.typical);  // not yet filtered
        if (entry.point != start) read(state, entry, growable);
        if (state.round < kRounds && !state.pool_has_work() && !state.large_suspect()) next_round(state);
    }
    return state;
}

void GrowthSearch::read(State& state, const PointHistory::Entry& entry, const std::vector<bool>& growable) const {
    std::size_t base_index = state.chain.size();
    std::vector<Key> changes;
    std::size_t searched = std::min(kBasesSearched, state.chain.size());
    for (std::size_t back = 0; back < searched; ++back) {
        std::size_t index = state.chain.size() - 1 - back;
        const Point& base = state.chain[index].point;
        bool found = base_index != state.chain.size(), valid = true;
        std::vector<Key> diff;
        for (std::size_t d = 0; d < base.size() && valid; ++d) {
            if (entry.point[d] == base[d]) continue;
            diff.push_back(key_of(d, entry.point[d]));
            valid = growable[d] && entry.point[d] != 0 && (!found || diff.size() < changes.size());
        }
        if (valid) base_index = index, changes = std::move(diff);
    }
    if (base_index == state.chain.size() || changes.empty()) return;
    const State::Base& base = state.chain[base_index];
    const Observation& obs = *entry.observation;
    bool ok = obs.status == Status::Ok && obs.median_s > 0;
    bool unchanged = ok && measured_as(obs) == base.measured_as;  // the base's own artifact: no effect
    double slower = unchanged ? 0 : ok ? std::log(obs.median_s) - base.log_time : std::numeric_limits<double>::infinity();
    double tolerance = kTolerance * std::sqrt(base.variance + (ok ? measurement_variance(obs, state.typical) : 0.0));
    bool swap = std::any_of(changes.begin(), changes.end(), [&](Key k) { return base.point[dim_of(k)] != 0; });
    std::vector<Key> fresh;
    for (Key k : changes) {
        if (!state.cleared.count(k)) fresh.push_back(k);
        state.left.insert(k);
    }
    if (ok && slower <= tolerance) {
        state.narrow_after_clean(fresh);
        if (!swap || slower <= 0) accept(state, base_index, entry, changes);
    } else {
        if (fresh.size() < changes.size()) {  // a merged value may conflict with the new incumbent: try it again in new company
            for (Key k : state.merge) {  // as a fresh value: cleared against an older incumbent only, it can be blamed now
                state.left.erase(k);
                state.cleared.erase(k);
                state.pool.push_front(k);
            }
            state.merge.clear();
        }
        state.reject(fresh);
    }
}

void GrowthSearch::accept(State& state, std::size_t base_index, const PointHistory::Entry& entry,
                          const std::vector<Key>& changes) const {
    for (Key k : changes) state.cleared.insert(k);
    if (base_index + 1 == state.chain.size()) {
        const Observation& obs = *entry.observation;
        State::Base next = state.chain.back();  // the same measurement again (same artifact): nothing new to filter
        next.point = entry.point;
        if (measured_as(obs) != next.measured_as) {
            double prior = next.variance + kStepSd * kStepSd, noise = measurement_variance(obs, state.typical);
            double gain = prior / (prior + noise);
            next = {entry.point, next.log_time + gain * (std::log(obs.median_s) - next.log_time), (1 - gain) * prior,
                    measured_as(obs)};
        }
        state.chain.push_back(std::move(next));
        const Point& now = state.incumbent();
        std::erase_if(state.merge, [&](Key k) { return now[dim_of(k)] == choice_of(k); });
        state.requeue_swaps();
        return;
    }
    for (Key k : changes)
        if (state.incumbent()[dim_of(k)] != choice_of(k)) state.merge.push_back(k);
    state.requeue_swaps();
}

Point GrowthSearch::incumbent(const PointHistory& taken, const Point& start) const {
    return replay(taken, start).incumbent();
}

std::vector<Point> GrowthSearch::propose(const PointHistory& taken, const Point& start, std::size_t max_count) const {
    State state = replay(taken, start);
    const Point& incumbent = state.incumbent();
    std::unordered_set<Key> in_flight;
    for (const auto& [point, obs] : taken.taken) {
        if (obs->status != Status::Pending) continue;
        for (std::size_t d = 0; d < point.size(); ++d)
            if (point[d] != incumbent[d]) in_flight.insert(key_of(d, point[d]));
    }
    std::vector<Point> out;
    auto busy = [&](const std::vector<Key>& keys) {
        return std::any_of(keys.begin(), keys.end(), [&](Key k) { return in_flight.count(k) != 0; });
    };
    auto offer = [&](const Point& point, const std::vector<Key>& keys) {
        if (point == incumbent || taken.contains(point)) return false;
        out.push_back(point);
        in_flight.insert(keys.begin(), keys.end());
        return true;
    };
    std::vector<const std::vector<Key>*> largest_first;
    for (const auto& group : state.suspects) largest_first.push_back(&group);
    std::stable_sort(largest_first.begin(), largest_first.end(),
                     [](const auto* a, const auto* b) { return a->size() > b->size(); });
    std::vector<bool> tried(largest_first.size(), false);
    auto halve = [&](std::size_t fresh_tier) {  // the largest suspect group of a tier below fresh_tier
        for (std::size_t i = 0; i < largest_first.size(); ++i) {
            const std::vector<Key>& group = *largest_first[i];
            if (tried[i] || std::none_of(group.begin(), group.end(), [&](Key k) { return tier(k) < fresh_tier; })) continue;
            tried[i] = true;
            std::vector<Key> half = first_half(group);
            if (busy(half)) continue;
            Point point = incumbent;
            for (Key k : half) point[dim_of(k)] = choice_of(k);
            if (offer(point, half)) return true;
        }
        return false;
    };
    while (out.size() < max_count) {
        std::vector<Key> keys;
        Point point = next_group(state, in_flight, keys);
        std::size_t fresh_tier = std::numeric_limits<std::size_t>::max();
        for (Key k : keys) fresh_tier = std::min(fresh_tier, tier(k));
        if (halve(point == incumbent ? std::numeric_limits<std::size_t>::max() : fresh_tier)) continue;
        if (!offer(point, keys) && !halve(std::numeric_limits<std::size_t>::max())) break;
    }
    return out;
}

Point GrowthSearch::next_group(const State& state, const std::unordered_set<Key>& in_flight,
                               std::vector<Key>& keys) const {
    const Point& incumbent = state.incumbent();
    Point point = incumbent;
    std::vector<bool> used(point.size(), false);
    for (Key k : state.merge) {
        std::size_t d = dim_of(k);
        if (incumbent[d] != 0 || used[d] || in_flight.count(k)) continue;
        point[d] = choice_of(k);
        used[d] = true;
        keys.push_back(k);
    }
    std::size_t fresh = 0;
    int kind = -1;  // 0: knobs the incumbent leaves at their default; 1: swaps (of one tier)
    for (Key k : state.pool) {
        if (fresh == kGroup) break;
        std::size_t d = dim_of(k);
        if (used[d] || state.left.count(k) || state.blamed.count(k) || in_flight.count(k)) continue;
        if (incumbent[d] == choice_of(k)) continue;
        int this_kind = (incumbent[d] != 0 ? 1 : 0) + 2 * static_cast<int>(tier(k));
        if (kind == -1) kind = this_kind;
        if (this_kind != kind) continue;
        point[d] = choice_of(k);
        used[d] = true;
        keys.push_back(k);
        ++fresh;
    }
    return point;
}

}  // namespace routetune
