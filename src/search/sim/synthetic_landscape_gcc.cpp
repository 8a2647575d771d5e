// The compiler features of a landscape over a real compiler's knobs (GCC's `*=~`), modelled on
// what the recorded and live GCC studies show. The optimisation level: -O3 gains 5-12%, -Os/-Oz,
// -O1, -Og and -O0 are slower, -Ofast gains 15-25% but is inaccurate (the fast-but-wrong value
// every real search meets first). -march=native gains 3-8% and one value in ten of the others
// crashes at run time (an instruction this CPU lacks); the rest are up to 3% slower. -mtune is a
// family (as -famN of the wide shape): one value gains 3-6%, five others less (`native`, the
// host's own tuning, among those six), the rest are up to 5% slower. Int params: options.int_knobs of the `-param:` axes whose values are all
// integers (five or more) get a bell-shaped gain whose peak is the end of their ordered values
// farthest from the default, either end on a tie (GCC's `~` lists default/4 ... 16 x default,
// so the peak is several steps away). The generic features are drawn after these: small gains, the triple and
// harmful values on flags (every axis but the params: a param acts smoothly along its values,
// as a threshold does, so a gain at one value and none at its neighbours would be unlike one),
// sub-noise effects and failing values on flags and params alike.
#include <algorithm>
#include <cmath>
#include <optional>

#include "search/sim/synthetic_landscape.hpp"
#include "util/text.hpp"

namespace routetune {

namespace {

/// The values of axis other than its default, in list order.
std::vector<std::string> non_default(const Axis& axis) {
    std::vector<std::string> values;
    for (std::uint64_t i = 0; i < axis.values.size(); ++i)
        if (axis.values.at(i) != axis.default_value) values.push_back(axis.values.at(i));
    return values;
}

/// axis's values and its default ordered by number when all are integers (five values or more
/// besides the default), else empty.
std::vector<std::string> ordered_integers(const Axis& axis) {
    if (axis.knob.rfind("-param:", 0) != 0 || !parse_integer(axis.default_value)) return {};
    std::vector<std::string> values = non_default(axis);
    if (values.size() < 5) return {};
    for (const auto& value : values)
        if (!parse_integer(value)) return {};
    values.push_back(axis.default_value);
    std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return *parse_integer(a) < *parse_integer(b); });
    return values;
}

}  // namespace

LandscapeOptions LandscapeOptions::gcc(std::uint64_t seed, bool thin) {
    LandscapeOptions options;
    options.seed = seed;
    options.strong = thin ? 0 : 1;
    options.harmful = 10;
    options.pairs = 2;
    options.failing_rate = thin ? 0.03 : 0.02;
    options.inaccurate = 1;
    options.failing_pairs = 3;
    options.small_effects = 30;
    options.small_gains = thin ? 18 : 14;
    options.small_gain_min = 0.01;
    options.small_gain_max = thin ? 0.02 : 0.05;
    options.int_knobs = thin ? 2 : 3;
    options.int_gain_min = thin ? 0.01 : 0.02;
    options.int_gain_max = thin ? 0.03 : 0.05;
    options.synergy_triples = 1;
    options.synergy_gain_min = 0.13;  // the members' own costs (about 3%) taken off: 10-15% net
    options.synergy_gain_max = 0.18;
    options.synergy_marginal_min = 0.008;
    options.synergy_marginal_max = 0.012;
    options.synergy_members_cost = true;
    options.synergy_on_flags = true;
    return options;
}

LandscapeOptions LandscapeOptions::gcc_doors(std::uint64_t seed) {
    LandscapeOptions options = gcc(seed, false);
    options.doors = 4;
    return options;
}

std::vector<SyntheticLandscape::Value> SyntheticLandscape::add_compiler_features(SearchRng& rng,
                                                                               std::vector<Value>& params) {
    std::vector<std::size_t> bells;
    for (std::size_t a = 0; a < expression_.axes.size(); ++a)
        if (!ordered_integers(expression_.axes[a]).empty()) bells.push_back(a);
    for (std::size_t i = bells.size(); i > 1; --i) std::swap(bells[i - 1], bells[rng.below(i)]);
    bells.resize(std::min(bells.size(), options_.int_knobs));
    std::vector<Value> rest;
    for (std::size_t a = 0; a < expression_.axes.size(); ++a) {
        const Axis& axis = expression_.axes[a];
        std::vector<std::string> values = non_default(axis);
        if (std::find(bells.begin(), bells.end(), a) != bells.end()) {
            std::vector<std::string> ordered = ordered_integers(axis);
            std::size_t def = static_cast<std::size_t>(
                std::find(ordered.begin(), ordered.end(), axis.default_value) - ordered.begin());
            std::size_t below = def, above = ordered.size() - 1 - def;
            std::size_t peak = below != above ? (above > below ? ordered.size() - 1 : 0) : (rng.below(2) == 0 ? 0 : ordered.size() - 1);
            add_bell(axis.knob, ordered, def, peak,
                     options_.int_gain_min + (options_.int_gain_max - options_.int_gain_min) * rng.unit());
        } else if (axis.knob == "-O") {
            for (const auto& level : values) {
                Value value{axis.knob, level};
                if (level == "3") effect_[value] = -(0.05 + 0.07 * rng.unit());
                else if (level == "fast") effect_[value] = -(0.15 + 0.1 * rng.unit()), failing_[value] = Status::Inaccurate;
                else if (level == "0") effect_[value] = std::log(2.0);
                else if (level == "g") effect_[value] = std::log(1.4);
                else if (level == "1") effect_[value] = std::log(1.25);
                else effect_[value] = std::log(1.1 + 0.05 * rng.unit());
            }
        } else if (axis.knob == "-march") {
            for (const auto& cpu : values) {
                Value value{axis.knob, cpu};
                if (cpu == "native") effect_[value] = -(0.03 + 0.05 * rng.unit());
                else if (rng.below(10) == 0) failing_[value] = Status::RunCrashed;
                else effect_[value] = std::log(1.0 + 0.03 * rng.unit());
            }
        } else if (axis.knob == "-mtune") {
            add_family(axis.knob, values, rng, 0, "native");
        } else {
            for (const auto& value : values) (axis.knob.rfind("-param:", 0) == 0 ? params : rest).emplace_back(axis.knob, value);
        }
    }
    return rest;
}

}  // namespace routetune
