// Ordered sweeps. Why: an integer knob (a size, a threshold, a count) often pays most far from
// its default, and its gain changes smoothly along its values. Growth tries its values in a
// random order as swaps and keeps one only when it is not slower, so with noise of the size
// of the step between neighbours it ends one or two steps off the best value. A sweep instead
// measures each value once on the anchor (one build each; the values are few), sorts them by
// number, smooths each measured log time with its neighbours' (weights 1, 2, 1, over those that
// built), and takes the value whose smoothed time is lowest, if it is below the anchor's own.
// The smoothing averages out noise where the gain is smooth; a value that fails is skipped.
#include "search/ordered_sweep.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace routetune {

namespace {

constexpr std::uint32_t kFewestValues = 5;
constexpr std::uint32_t kMostValues = 16;
constexpr double kShareOfSingleChanges = 0.1;

std::optional<long long> integer(const std::string& text) {
    long long value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

OrderedSweep::OrderedSweep(const SearchSpace& space, const std::vector<std::size_t>& excluded, bool enabled)
    : space_(space) {
    if (!enabled) return;
    std::size_t cost = 0;
    for (std::size_t d = 0; d < space.dimensions(); ++d) {
        std::uint32_t values = space.choices(d) - 1;
        if (values < kFewestValues || values > kMostValues) continue;
        if (std::find(excluded.begin(), excluded.end(), d) != excluded.end()) continue;
        bool numeric = true;
        for (std::uint32_t c = 1; c <= values && numeric; ++c) numeric = integer(space.value(d, c)).has_value();
        if (!numeric) continue;
        dims_.push_back(d);
        cost += values;
    }
    if (static_cast<double>(cost) > kShareOfSingleChanges * static_cast<double>(space.single_changes())) dims_.clear();
}

std::vector<Point> OrderedSweep::points(const Point& anchor) const {
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

std::uint32_t OrderedSweep::best_choice(const PointHistory& taken, const Point& anchor, std::size_t d) const {
    const double unknown = std::numeric_limits<double>::infinity();
    std::vector<std::pair<long long, std::uint32_t>> order;  // (value, choice), by value
    for (std::uint32_t c = 1; c < space_.choices(d); ++c) order.emplace_back(*integer(space_.value(d, c)), c);
    std::sort(order.begin(), order.end());
    auto log_time = [&](std::uint32_t c) {
        Point point = anchor;
        point[d] = c;
        const Observation* obs = taken.finished_observation(point);
        return obs && obs->status == Status::Ok && obs->median_s > 0 ? std::log(obs->median_s) : unknown;
    };
    std::vector<double> times;
    for (const auto& entry : order) times.push_back(log_time(entry.second));
    std::uint32_t best = anchor[d];
    double best_time = log_time(anchor[d]);
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (times[i] == unknown || order[i].second == anchor[d]) continue;
        double sum = 2 * times[i], weight = 2;
        for (std::size_t j : {i - 1, i + 1})
            if (j < times.size() && times[j] != unknown) sum += times[j], weight += 1;
        if (sum / weight < best_time) best_time = sum / weight, best = order[i].second;
    }
    return best;
}

std::optional<Point> OrderedSweep::apply(const PointHistory& taken, const Point& anchor, Point base) const {
    for (const Point& point : points(anchor))
        if (taken.finished_observation(point) == nullptr) return std::nullopt;
    for (std::size_t d : dims_) base[d] = best_choice(taken, anchor, d);
    return base;
}

}  // namespace routetune
