// The features of the issue-13 landscape shape, drawn after the classic ones so that a
// landscape without them is the same as before. Small gains and synergy members are picked
// among the existing values (synergy members among the neutral ones: no effect, no failure).
// Each synergy member then gets a small effect of its own, 0.5-2% of either sign (fitting the
// recorded 8-knob GCC studies, every value of their best routes has a clear effect alone),
// drawn from a generator of its own, so that the landscape is otherwise the same as with
// needles (members that do nothing alone, which no screening of single values or additive
// model can see: wide_needles, a diagnostic). An int knob
// -pNNN lists 10 values 0, 1, 2, 4, ..., 256 with its default among the first three and a
// bell-shaped gain centred at least four steps away, so its neighbours pay a little and the
// default's neighbours nothing. An enum family knob -famN has the default `generic` and 23
// values: a family of 6 that gain (the best the most), 4 that fail to build (an unsupported
// target) and the rest slightly slower. Doors (options.doors, gcc_doors: a diagnostic) are drawn
// last, from a generator of their own: a small gain and a closer, a neutral value of another
// knob that does nothing alone and cancels the gain when both are held (a pass's other
// parameter turning it off, as on the live stencil).
#include <algorithm>
#include <cmath>
#include <map>
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
    options.synergy_marginal_min = 0.005;
    options.synergy_marginal_max = 0.02;
    return options;
}

LandscapeOptions LandscapeOptions::wide_needles(std::size_t knobs, std::uint64_t seed) {
    LandscapeOptions options = wide(knobs, seed);
    options.synergy_marginal_min = options.synergy_marginal_max = 0;
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
    std::vector<Value> small_gains;
    for (std::size_t i = 0; i < options_.small_gains; ++i) {
        double effect = -(options_.small_gain_min + (options_.small_gain_max - options_.small_gain_min) * rng.unit());
        small_gains.push_back(neutral());  // drawn after its effect, as every landscape so far was
        effect_[small_gains.back()] = effect;
    }
    std::map<std::string, std::size_t> choices;  // knob -> its non-default values
    for (const Axis& axis : expression_.axes) choices[axis.knob] = axis.values.size() - (axis.values.contains(axis.default_value) ? 1 : 0);
    auto member = [&]() {
        for (int tries = 0; tries < 1000 && options_.synergy_on_flags; ++tries) {
            Value value = neutral();
            if (choices[value.first] == 1) return value;
        }
        return neutral();
    };
    auto synergy = [&](std::size_t size, double low, double high) {
        Rule rule;
        while (rule.members.size() < size) {
            Value value = member();
            bool same_knob = false;
            for (const Value& member : rule.members) same_knob |= member.first == value.first;
            if (!same_knob) rule.members.push_back(value);
            effect_[value] = 1e-9;  // taken: not picked again
        }
        rule.log_effect = -(low + (high - low) * rng.unit());
        interactions_.push_back(rule);
    };
    std::size_t first_synergy = interactions_.size();
    for (std::size_t i = 0; i < options_.synergy_pairs; ++i) synergy(2, options_.synergy_gain_min, options_.synergy_gain_max);
    for (std::size_t i = 0; i < options_.synergy_triples; ++i) synergy(3, options_.synergy_gain_min, options_.synergy_gain_max);
    SearchRng marginal(options_.seed, 0x6d617267ULL);
    for (std::size_t i = first_synergy; i < interactions_.size(); ++i)
        for (const Value& member : interactions_[i].members) {
            double size = options_.synergy_marginal_min +
                          (options_.synergy_marginal_max - options_.synergy_marginal_min) * marginal.unit();
            bool cost = options_.synergy_members_cost || marginal.below(2) == 0;
            if (size > 0) effect_[member] = cost ? size : -size;
        }
    add_doors(small_gains, values);
}

void SyntheticLandscape::add_doors(std::vector<Value> gains, const std::vector<Value>& values) {
    SearchRng rng(options_.seed, 0x646f6f72ULL);  // a stream of its own: landscapes without doors draw as before
    for (std::size_t i = gains.size(); i > 1; --i) std::swap(gains[i - 1], gains[rng.below(i)]);
    for (std::size_t i = 0; i < std::min(options_.doors, gains.size()) && !values.empty(); ++i) {
        const Value& gain = gains[i];
        for (int tries = 0; tries < 1000; ++tries) {
            const Value& closer = values[rng.below(values.size())];
            if (closer.first == gain.first || effect_[closer] != 0.0 || failing_.count(closer)) continue;
            effect_[closer] = 1e-12;  // taken (nothing alone)
            interactions_.push_back(Rule{{gain, closer}, -effect_[gain]});
            break;
        }
    }
}

void SyntheticLandscape::add_own_axes(SearchRng& rng) {
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
        add_bell(name, list, def, peak, options_.int_gain_min + (options_.int_gain_max - options_.int_gain_min) * rng.unit());
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
        add_family(name, {list.begin() + 1, list.end()}, rng, 4);
        Axis axis;
        axis.knob = name;
        axis.default_value = "generic";
        axis.values = ValueList::of(list);
        add_axis(std::move(axis));
    }
}

void SyntheticLandscape::add_bell(const std::string& knob, const std::vector<std::string>& ordered, std::size_t def,
                                  std::size_t peak, double gain) {
    auto bell = [&](std::size_t i) {
        double x = static_cast<double>(i) - static_cast<double>(peak);
        return gain * std::exp(-x * x / (2 * 1.2 * 1.2));
    };
    for (std::size_t i = 0; i < ordered.size(); ++i)
        if (i != def) effect_[{knob, ordered[i]}] = -(bell(i) - bell(def));
}

void SyntheticLandscape::add_family(const std::string& knob, std::vector<std::string> values, SearchRng& rng,
                                    std::size_t failing, const std::string& gainer) {
    for (std::size_t i = values.size(); i > 1; --i) std::swap(values[i - 1], values[rng.below(i)]);
    auto own = std::find(values.begin(), values.end(), gainer);
    if (own != values.end()) std::iter_swap(own, values.begin() + static_cast<std::ptrdiff_t>(rng.below(6)));
    double gain = 0.03 + 0.03 * rng.unit();
    for (std::size_t j = 0; j < values.size(); ++j) {
        Value value{knob, values[j]};
        if (j == 0) effect_[value] = -gain;
        else if (j < 6) effect_[value] = -gain * (0.3 + 0.6 * rng.unit());
        else if (j < 6 + failing) failing_[value] = Status::BuildFailed;
        else effect_[value] = std::log(1.0 + 0.05 * rng.unit());
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
