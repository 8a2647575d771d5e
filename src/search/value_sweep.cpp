// Value sweeps. Why: growth tries a knob's other values in a random order as swaps and keeps
// one only when it is not slower, so a knob with many values, whose best value gains a little
// more than its neighbours, ends on a good value but seldom the best. Two kinds of knobs are
// swept instead: an integer knob of 5-16 values (a size, a threshold, a count), which often
// pays most far from its default and smoothly along its values, and a knob of 12-24 values that
// are not numbers (a family of targets or variants). A sweep measures each value once on the
// anchor (one build each). Integer values are sorted by number and each measured log time is
// smoothed with its neighbours' (weights 1, 2, 1, over those that built), which averages out
// noise where the gain is smooth; the anchor's own measurement takes its place among them (the
// default's number, when the catalog knows it) and is smoothed alike, so that a lucky anchor
// measurement does not keep a knob off a gain of several percent. Other values are taken as
// measured. The value whose time is lowest is taken if it is below the anchor's own; a value
// that fails is skipped.
#include "search/value_sweep.hpp"

#include "util/text.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace routetune {

namespace {

constexpr std::uint32_t kFewestIntegers = 5;   // integer knobs with 5-16 values are swept
constexpr std::uint32_t kMostIntegers = 16;
constexpr std::uint32_t kFewestNames = 12;     // other knobs with 12-24 values are swept
constexpr std::uint32_t kMostNames = 24;
constexpr double kShareOfSingleChanges = 0.1;

}  // namespace

ValueSweep::ValueSweep(const SearchSpace& space, const std::vector<std::size_t>& excluded, bool enabled)
    : space_(space) {
    if (!enabled) return;
    std::size_t cost = 0;
    for (std::size_t d = 0; d < space.dimensions(); ++d) {
        std::uint32_t values = space.choices(d) - 1;
        if (std::find(excluded.begin(), excluded.end(), d) != excluded.end()) continue;
        bool numeric = true;
        for (std::uint32_t c = 1; c <= values && numeric; ++c) numeric = parse_integer(space.value(d, c)).has_value();
        bool swept = numeric ? values >= kFewestIntegers && values <= kMostIntegers
                             : values >= kFewestNames && values <= kMostNames;
        if (!swept) continue;
        dims_.push_back(d);
        cost += values;
    }
    if (static_cast<double>(cost) > kShareOfSingleChanges * static_cast<double>(space.single_changes())) dims_.clear();
}

std::vector<Point> ValueSweep::points(const Point& anchor) const {
    std::vector<Point> points;
    for (std::size_t d : dims_)
        for (std::uint32_t c = 1; c < space_.choices(d); ++c) {
            if (c == anchor[d]) continue;
            Point point = anchor;
            point[d] = c;
            points.push_back(point);
        }
    return points;
}

std::uint32_t ValueSweep::best_choice(const PointHistory& taken, const Point& anchor, std::size_t d) const {
    const double unknown = std::numeric_limits<double>::infinity();
    std::vector<std::pair<long long, std::uint32_t>> order;  // (value, choice), by value
    bool numeric = parse_integer(space_.value(d, 1)).has_value();  // all of them are, or none (see the constructor)
    for (std::uint32_t c = 1; c < space_.choices(d); ++c) order.emplace_back(numeric ? *parse_integer(space_.value(d, c)) : 0, c);
    auto default_number = parse_integer(space_.default_value(d));
    if (numeric && default_number) order.emplace_back(*default_number, 0);
    std::sort(order.begin(), order.end());
    auto log_time = [&](std::uint32_t c) {
        Point point = anchor;
        point[d] = c;
        const Observation* obs = taken.finished_observation(point);
        return obs && obs->status == Status::Ok && obs->median_s > 0 ? std::log(obs->median_s) : unknown;
    };
    std::vector<double> times;
    for (const auto& entry : order) times.push_back(log_time(entry.second));
    auto smoothed = [&](std::size_t i) {
        double sum = 2 * times[i], weight = 2;
        for (std::size_t j : {i - 1, i + 1})
            if (numeric && j < times.size() && times[j] != unknown) sum += times[j], weight += 1;
        return sum / weight;
    };
    std::uint32_t best = anchor[d];
    double best_time = log_time(anchor[d]);
    for (std::size_t i = 0; i < times.size(); ++i)
        if (order[i].second == anchor[d] && times[i] != unknown) best_time = smoothed(i);
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (times[i] == unknown || order[i].second == anchor[d]) continue;
        if (smoothed(i) < best_time) best_time = smoothed(i), best = order[i].second;
    }
    return best;
}

std::optional<Point> ValueSweep::apply(const PointHistory& taken, const Point& anchor, Point base) const {
    for (const Point& point : points(anchor))
        if (taken.finished_observation(point) == nullptr) return std::nullopt;
    for (std::size_t d : dims_) base[d] = best_choice(taken, anchor, d);
    return base;
}

}  // namespace routetune
