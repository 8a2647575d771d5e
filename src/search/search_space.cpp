// Builds the dimensions of an expression once (materialising each varying knob's values, which
// strategies index constantly) and converts between points and routes in both directions.
#include "search/search_space.hpp"

#include "routetune/error.hpp"
#include "search/search_rng.hpp"

namespace routetune {

std::size_t PointHash::operator()(const Point& point) const {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::uint32_t c : point) h = (h ^ c) * 0x100000001b3ULL;
    return static_cast<std::size_t>(h);
}

SearchSpace::SearchSpace(const Expression& expression) {
    constexpr std::uint64_t max_values = std::uint64_t{1} << 20;
    for (const Axis& axis : expression.axes) {
        if (axis.fixed()) {
            fixed_.emplace_back(axis.knob, axis.values.at(0));
            continue;
        }
        if (axis.values.size() > max_values)
            throw UsageError("knob " + axis.knob + " takes " + std::to_string(axis.values.size()) +
                             " values in the expression; search strategies take at most " +
                             std::to_string(max_values) + " (use a step, e.g. [lo..hi:*2])");
        Dimension dim;
        dim.knob = axis.knob;
        dim.default_value = axis.default_value;
        if (!axis.default_value.empty()) dim.index.emplace(axis.default_value, 0);
        for (std::uint64_t i = 0; i < axis.values.size(); ++i) {
            std::string value = axis.values.at(i);
            if (value == axis.default_value) continue;
            dim.values.push_back(value);
            dim.index.emplace(std::move(value), static_cast<std::uint32_t>(dim.values.size()));
        }
        dims_.push_back(std::move(dim));
    }
}

std::size_t SearchSpace::single_changes() const {
    std::size_t n = 0;
    for (const Dimension& dim : dims_) n += dim.values.size();
    return n;
}

BigCount SearchSpace::size() const {
    BigCount count(1);
    for (std::size_t d = 0; d < dims_.size(); ++d) count *= choices(d);
    return count;
}

Route SearchSpace::route(const Point& point) const {
    Route route;
    for (const auto& [knob, value] : fixed_) route.set(knob, value);
    for (std::size_t d = 0; d < dims_.size(); ++d)
        if (point[d] != 0) route.set(dims_[d].knob, value(d, point[d]));
    return route;
}

std::optional<Point> SearchSpace::point(const Route& route) const {
    std::size_t matched = 0;
    for (const auto& [knob, value] : fixed_) {
        auto got = route.get(knob);
        if (!got || *got != value) return std::nullopt;
        ++matched;
    }
    Point point(dims_.size(), 0);
    for (std::size_t d = 0; d < dims_.size(); ++d) {
        auto got = route.get(dims_[d].knob);
        if (!got) continue;
        auto it = dims_[d].index.find(*got);
        if (it == dims_[d].index.end()) return std::nullopt;
        point[d] = it->second;
        ++matched;
    }
    if (matched != route.assignments().size()) return std::nullopt;
    return point;
}

std::size_t SearchSpace::changes(const Point& point) {
    std::size_t n = 0;
    for (std::uint32_t c : point) n += c != 0;
    return n;
}

PointHistory::PointHistory(const SearchSpace& space, const SearchHistory& history) {
    for (const Observation& obs : history.observations) {
        auto point = space.point(obs.route);
        if (!point) continue;
        taken.emplace(*point, &obs);
        if (obs.status != Status::Pending) {
            taken[*point] = &obs;
            finished.push_back({*point, &obs});
        }
    }
}

const Observation* PointHistory::finished_observation(const Point& point) const {
    auto it = taken.find(point);
    if (it == taken.end() || it->second->status == Status::Pending) return nullptr;
    return it->second;
}

Point SearchSpace::decode(std::uint64_t index) const {
    Point point(dimensions());
    for (std::size_t d = point.size(); d-- > 0;) {
        point[d] = static_cast<std::uint32_t>(index % choices(d));
        index /= choices(d);
    }
    return point;
}

Point SearchSpace::mutate(Point point, SearchRng& rng, std::size_t changes) const {
    for (std::size_t k = 0; k < changes; ++k) {
        std::size_t d = rng.below(point.size());
        std::uint32_t c = static_cast<std::uint32_t>(rng.below(choices(d) - 1));
        point[d] = c >= point[d] ? c + 1 : c;
    }
    return point;
}

}  // namespace routetune
