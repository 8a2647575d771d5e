// The features of the issue-13 landscape shape, drawn after the classic ones so that a
// landscape without them is the same as before. Small gains and synergy members are picked
// among the existing values (synergy members among the neutral ones: no effect, no failure,
// so neither a screening of single values nor an additive model can see them). An int knob
// -pNNN lists 10 values 0, 1, 2, 4, ..., 256 with its default among the first three and a
// bell-shaped gain centred at least four steps away, so its neighbours pay a little and the
// default's neighbours nothing. An enum family knob -famN has the default `generic` and 23
// values: a family of 6 that gain (the best the most), 4 that fail to build (an unsupported
// target) and the rest slightly slower.
#include <cmath>
#include <cstdio>

#include "search/sim/synthetic_landscape.hpp"

namespace routetune {

LandscapeOptions LandscapeOptions::wide(std::size_t knobs, std::uint64_t seed) {
    LandscapeOptions options;
    options.knobs = knobs;
    options.seed = seed;
    options.strong = 1;
    options.harmful = 12;
    options.pairs = 4;
    options.failing_rate = 0.02;
    options.inaccurate = 3;
    options.failing_pairs = 2;
    options.small_effects = 20;
    options.small_gains = 10;
    options.int_knobs = 3;
    options.synergy_pairs = 2;
    options.synergy_triples = 2;
    options.family_knobs = 2;
    return options;
}

void SyntheticLandscape::add_wide_features(SearchRng& rng, std::vector<Value>& values) {
    auto neutral = [&]() {
        for (int tries = 0; tries < 1000; ++tries) {
            const Value& value = values[rng.below(values.size())];
            if (effect_[value] == 0.0 && !failing_.count(value)) return value;
        }
        return values[rng.below(values.size())];
    };
    for (std::size_t i = 0; i < options_.small_gains; ++i) effect_[neutral()] = -(0.02 + 0.03 * rng.unit());
    auto synergy = [&](std::size_t size, double low, double high) {
        Rule rule;
        while (rule.members.size() < size) {
            Value value = neutral();
            bool same_knob = false;
            for (const Value& member : rule.members) same_knob |= member.first == value.first;
            if (!same_knob) rule.members.push_back(value);
            effect_[value] = 1e-9;  // taken: not picked again
        }
        rule.log_effect = -(low + (high - low) * rng.unit());
        interactions_.push_back(rule);
    };
    for (std::size_t i = 0; i < options_.synergy_pairs; ++i) synergy(2, 0.03, 0.06);
    for (std::size_t i = 0; i < options_.synergy_triples; ++i) synergy(3, 0.03, 0.06);
    auto add_axis = [&](Axis axis) {
        expression_.text += " " + axis.knob + "=~";
        expression_.axes.push_back(std::move(axis));
    };
    for (std::size_t k = 0; k < options_.int_knobs; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "-p%03zu", k);
        std::vector<std::string> list;
        for (int i = 0; i < 10; ++i) list.push_back(std::to_string(i == 0 ? 0 : 1 << (i - 1)));
        std::size_t def = rng.below(3), peak = def + 4 + rng.below(10 - def - 4);
        double gain = 0.03 + 0.03 * rng.unit();
        auto bell = [&](std::size_t i) {
            double x = static_cast<double>(i) - static_cast<double>(peak);
            return gain * std::exp(-x * x / (2 * 1.2 * 1.2));
        };
        for (std::size_t i = 0; i < list.size(); ++i)
            if (i != def) effect_[{name, list[i]}] = -(bell(i) - bell(def));
        Axis axis;
        axis.knob = name;
        axis.default_value = list[def];
        axis.values = ValueList::of(list);
        add_axis(std::move(axis));
    }
    for (std::size_t k = 0; k < options_.family_knobs; ++k) {
        std::string name = "-fam" + std::to_string(k);
        std::vector<std::string> list = {"generic"};
        for (int i = 0; i < 23; ++i) list.push_back((i < 10 ? "c0" : "c") + std::to_string(i));
        std::vector<std::size_t> order;
        for (std::size_t i = 1; i < list.size(); ++i) order.push_back(i);
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
        double gain = 0.03 + 0.03 * rng.unit();
        for (std::size_t j = 0; j < order.size(); ++j) {
            Value value{name, list[order[j]]};
            if (j == 0) effect_[value] = -gain;
            else if (j < 6) effect_[value] = -gain * (0.3 + 0.6 * rng.unit());
            else if (j < 10) failing_[value] = Status::BuildFailed;
            else effect_[value] = std::log(1.0 + 0.05 * rng.unit());
        }
        Axis axis;
        axis.knob = name;
        axis.default_value = "generic";
        axis.values = ValueList::of(list);
        add_axis(std::move(axis));
    }
}

double SyntheticLandscape::needle_log_gain(const Route& route) const {
    double gain = 0;
    for (const Rule& rule : interactions_) {
        std::size_t on_enum_knobs = 0;
        bool needle = true;
        for (const auto& member : rule.members) {
            needle &= std::abs(effect_.at(member)) < 1e-6;
            for (const Axis& axis : expression_.axes)
                if (axis.knob == member.first) on_enum_knobs += axis.values.size() >= 3;
        }
        if (needle && on_enum_knobs >= 2 && applies(rule, route)) gain -= rule.log_effect;
    }
    return gain;
}

Route SyntheticLandscape::essential_route() const {
    Route route = best_route();
    for (bool removed = true; removed;) {
        removed = false;
        double time = true_time(route), cheapest = 0.005;
        std::string knob;
        for (const auto& [name, value] : route.assignments()) {
            Route without = route;
            without.erase(name);
            double cost = true_time(without) / time - 1;
            if (cost < cheapest) cheapest = cost, knob = name;
        }
        if (!knob.empty()) route.erase(knob), removed = true;
    }
    return route;
}

}  // namespace routetune
