// Knobs are named -k000, -k001, ...; a bool knob defaults to off (or on, one in four), an
// enum knob to its first value v0. A few non-default values get a small random log effect,
// below the noise (most knobs do not touch a given workload at all);
// a few chosen values get a strong speed-up or slowdown; a few pairs of those values add an
// extra log effect when both are set (knobs that matter interact; a synergy between two
// knobs that do nothing alone would be a needle no search could be asked to find); some values (and a few pairs) fail with a fixed status, and a few
// fast values are inaccurate (the realistic trap). A route's time is the base time times the
// exponential of its summed effects; the measured median adds log-normal noise derived from
// the route's text and the seed, so the landscape is a pure function of (options, route).
#include "search/sim/synthetic_landscape.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "search/search_rng.hpp"
#include "search/search_space.hpp"

namespace routetune {

namespace {

std::uint64_t text_hash(const std::string& text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ULL;
    return h;
}

}  // namespace

SyntheticLandscape::SyntheticLandscape(const LandscapeOptions& options) : options_(options) {
    SearchRng rng(options.seed, 0x6c616e64ULL);
    std::vector<Value> values;  // non-default values
    for (std::size_t k = 0; k < options.knobs; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "-k%03zu", k);
        Axis axis;
        axis.knob = name;
        if (rng.below(10) < 6) {
            axis.values = ValueList::of({"on", "off"});
            axis.default_value = rng.below(4) == 0 ? "on" : "off";
        } else {
            std::vector<std::string> list;
            std::size_t n = 3 + rng.below(2);
            for (std::size_t i = 0; i < n; ++i) list.push_back(std::string("v").append(std::to_string(i)));
            axis.values = ValueList::of(list);
            axis.default_value = "v0";
        }
        for (std::uint64_t i = 0; i < axis.values.size(); ++i)
            if (axis.values.at(i) != axis.default_value) values.emplace_back(axis.knob, axis.values.at(i));
        expression_.text += (expression_.text.empty() ? "" : " ") + axis.knob + "=~";
        expression_.axes.push_back(std::move(axis));
    }
    draw(rng, values, values);
    add_wide_features(rng, values);
    add_own_axes(rng);
    index_axes();
}

SyntheticLandscape::SyntheticLandscape(const LandscapeOptions& options, Expression space)
    : options_(options), expression_(std::move(space)) {
    SearchRng rng(options.seed, 0x6c616e64ULL);
    std::vector<Value> params;
    std::vector<Value> values = add_compiler_features(rng, params);
    params.insert(params.end(), values.begin(), values.end());
    draw(rng, values, params);
    add_wide_features(rng, values);
    index_axes();
}

void SyntheticLandscape::index_axes() {
    for (const Axis& axis : expression_.axes) default_of_[axis.knob] = axis.default_value;
}

void SyntheticLandscape::draw(SearchRng& rng, const std::vector<Value>& values, const std::vector<Value>& failing_values) {
    const LandscapeOptions& options = options_;
    for (const auto& value : failing_values) effect_.emplace(value, 0.0);
    for (std::size_t i = 0; i < options.small_effects && !failing_values.empty(); ++i)
        effect_[failing_values[rng.below(failing_values.size())]] = options.small_effect_sd * rng.normal();
    auto pick_from = [&](const std::vector<Value>& list) {
        for (int tries = 0; tries < 1000; ++tries) {
            const auto& value = list[rng.below(list.size())];
            if (std::abs(effect_[value]) < 0.03 && !failing_.count(value)) return value;
        }
        return list[rng.below(list.size())];
    };
    auto pick = [&]() { return pick_from(values); };
    std::vector<Value> mattering;  // values with a main effect
    for (std::size_t i = 0; i < options.strong; ++i) {
        mattering.push_back(pick());
        effect_[mattering.back()] = -(0.05 + 0.2 * rng.unit());
    }
    for (std::size_t i = 0; i < options.harmful; ++i) {
        mattering.push_back(pick());
        effect_[mattering.back()] = std::log(1.05 + 0.95 * rng.unit());
    }
    for (std::size_t i = 0; i < options.inaccurate; ++i) {
        auto value = pick();
        effect_[value] = -(0.1 + 0.2 * rng.unit());
        failing_[value] = Status::Inaccurate;
    }
    std::size_t failing = static_cast<std::size_t>(std::lround(options.failing_rate * failing_values.size()));
    constexpr Status kFailures[] = {Status::BuildFailed, Status::RunCrashed, Status::BuildCrashed, Status::RunFailed};
    for (std::size_t i = 0; i < failing; ++i) failing_[pick_from(failing_values)] = kFailures[rng.below(4)];
    auto pair = [&](const auto& draw_one, double log_effect) {
        auto a = draw_one(), b = draw_one();
        for (int tries = 0; tries < 100 && b.first == a.first; ++tries) b = draw_one();
        return Rule{{a, b}, log_effect};
    };
    auto any = [&]() { return pick(); };
    auto main_effect = [&]() { return mattering.empty() ? pick() : mattering[rng.below(mattering.size())]; };
    for (std::size_t i = 0; i < options.pairs; ++i)
        interactions_.push_back(pair(main_effect, (rng.below(2) == 0 ? -1.0 : 1.0) * (0.03 + 0.09 * rng.unit())));
    for (std::size_t i = 0; i < options.failing_pairs; ++i) failing_pairs_.push_back(pair(any, 0));
}

std::vector<SyntheticLandscape::Interaction> SyntheticLandscape::interactions() const {
    std::vector<Interaction> out;
    for (const Rule& rule : interactions_) out.push_back({rule.members, rule.log_effect});
    return out;
}

bool SyntheticLandscape::applies(const Rule& rule, const Route& route) const {
    for (const auto& [knob, value] : rule.members)
        if (route.get(knob) != value) return false;
    return true;
}

double SyntheticLandscape::true_time(const Route& route) const {
    double log_time = std::log(options_.base_time_s);
    for (const auto& [knob, value] : route.assignments()) {
        auto key = std::make_pair(knob, value);
        if (failing_.count(key)) return std::numeric_limits<double>::infinity();
        auto it = effect_.find(key);
        if (it != effect_.end()) log_time += it->second;
    }
    for (const Rule& rule : failing_pairs_)
        if (applies(rule, route)) return std::numeric_limits<double>::infinity();
    for (const Rule& rule : interactions_)
        if (applies(rule, route)) log_time += rule.log_effect;
    return std::exp(log_time);
}

Observation SyntheticLandscape::evaluate(const Route& route) const {
    Observation obs;
    obs.route = route;
    for (const auto& [knob, value] : route.assignments()) {
        auto it = failing_.find({knob, value});
        if (it != failing_.end() && it->second != Status::Inaccurate) {
            obs.status = it->second;
            return obs;
        }
    }
    for (const Rule& rule : failing_pairs_)
        if (applies(rule, route)) {
            obs.status = Status::RunCrashed;
            return obs;
        }
    for (const auto& [knob, value] : route.assignments()) {
        auto it = failing_.find({knob, value});
        if (it != failing_.end()) {
            obs.status = it->second;
            return obs;
        }
    }
    Route canonical;
    for (const auto& [knob, value] : route.assignments()) {
        auto known = default_of_.find(knob);
        if (known == default_of_.end() || known->second != value) canonical.set(knob, value);
    }
    SearchRng noise(options_.seed ^ text_hash(canonical.to_string()), 0x6e6f697365ULL);
    double median = true_time(route) * std::exp(options_.noise_sd * noise.normal());
    obs.status = Status::Ok;
    obs.median_s = median;
    // A few repeats give intervals of very different widths (an end-to-end study's half widths
    // spread over a factor of 5 between its 10th and 90th percentiles): interval_spread models it.
    double half = 1.5 * options_.noise_sd * std::exp(options_.interval_spread * noise.normal());
    obs.ci_low_s = median * std::exp(-half);
    obs.ci_high_s = median * std::exp(half);
    return obs;
}

Route SyntheticLandscape::best_route() const {
    SearchSpace space(expression_);
    auto time_of = [&](const Point& p) { return true_time(space.route(p)); };
    auto descend = [&](Point point) {
        double best = time_of(point);
        bool improved = true;
        auto consider = [&](const Point& next) {
            double t = time_of(next);
            if (t < best * (1 - 1e-12)) {
                best = t;
                point = next;
                improved = true;
            }
        };
        while (improved) {
            improved = false;
            for (std::size_t d = 0; d < space.dimensions(); ++d)
                for (std::uint32_t c = 0; c < space.choices(d); ++c)
                    if (c != point[d]) {
                        Point next = point;
                        next[d] = c;
                        consider(next);
                    }
            for (const Rule& rule : interactions_) {
                Route route = space.route(point);
                for (const auto& [knob, value] : rule.members) route.set(knob, value);
                if (auto next = space.point(route)) consider(*next);
            }
        }
        return std::make_pair(best, point);
    };
    Point greedy = space.baseline();
    for (std::size_t d = 0; d < space.dimensions(); ++d) {
        double best = time_of(greedy);
        for (std::uint32_t c = 1; c < space.choices(d); ++c) {
            Point single = space.baseline();
            single[d] = c;
            double t = time_of(single);
            if (t < best) best = t, greedy[d] = c;
        }
    }
    auto from_baseline = descend(space.baseline());
    auto from_greedy = descend(greedy);
    return space.route(from_greedy.first < from_baseline.first ? from_greedy.second : from_baseline.second);
}

double SyntheticLandscape::best_speedup() const { return options_.base_time_s / true_time(best_route()); }

}  // namespace routetune
