// A synthetic tuning landscape: a made-up compiler whose knobs speed a workload up or down,
// interact in pairs, break the build or the accuracy for some values, and time with noise.
// Used to test strategies and to benchmark them before recorded studies exist.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "routetune/expression.hpp"
#include "routetune/strategy.hpp"
#include "search/search_rng.hpp"

namespace routetune {

/// The shape of a landscape.
struct LandscapeOptions {
    std::size_t knobs = 60;          ///< bool knobs (on|off) and enum knobs of 3-4 values
    std::uint64_t seed = 1;
    std::size_t strong = 5;          ///< values that speed the workload up by 5-25%
    std::size_t harmful = 8;         ///< values that slow it down by 5-100%
    std::size_t pairs = 8;           ///< interactions of strong/harmful values, +-3-12%
    double failing_rate = 0.04;      ///< share of non-default values that fail the build or run
    std::size_t inaccurate = 2;      ///< values that are fast (10-30%) but inaccurate
    std::size_t failing_pairs = 2;   ///< value pairs that fail together only
    std::size_t small_effects = 20;  ///< other values with a small effect
    double small_effect_sd = 0.003;  ///< its log effect ~ N(0, sd)
    double noise_sd = 0.01;          ///< log noise of a measured median
    double base_time_s = 1.0;        ///< the default route's true time
    std::size_t small_gains = 0;     ///< values that speed the workload up by 2-5%
    std::size_t int_knobs = 0;       ///< ordered int knobs -pNNN of 10 values, best far from the default
    std::size_t synergy_pairs = 0;   ///< pairs of values that do nothing alone and gain 3-6% together
    std::size_t synergy_triples = 0; ///< triples of values that do nothing alone and gain 3-6% together
    std::size_t family_knobs = 0;    ///< enum knobs -famN of 24 values: a family of 6 that gains, 4 that fail

    /// The issue-13 shape ("a modelled *=~"): many small gains, synergy pairs and triples, int
    /// knobs whose best value is far from the default, enum families, 2% failing values and
    /// fast-but-wrong values; knobs sets the size (1000 knobs: about 1700 fast candidates).
    static LandscapeOptions wide(std::size_t knobs, std::uint64_t seed);
};

/// A deterministic landscape: the same route always gets the same observation.
class SyntheticLandscape {
public:
    /// Draws a landscape from options.
    explicit SyntheticLandscape(const LandscapeOptions& options);
    /// Every knob of the landscape at `~` (all values), as a parsed expression.
    const Expression& expression() const { return expression_; }
    /// The observation of route (Ok with a noisy median and CI, or the failure it meets).
    Observation evaluate(const Route& route) const;
    /// The noiseless time of route, or infinity when it fails.
    double true_time(const Route& route) const;
    /// The better of two coordinate descents on noiseless times (single-knob moves and the
    /// interacting pairs), from the baseline and from every knob's best single value: a good
    /// stand-in for the optimum.
    Route best_route() const;
    /// best_route() without the changes whose removal costs less than 0.5% each (removed
    /// greedily, smallest cost first): the changes that matter.
    Route essential_route() const;
    /// Noiseless speedup of best_route() over the default route.
    double best_speedup() const;
    /// The log gain of route's synergies (interactions of values that do nothing alone) with at
    /// least two members on knobs of three or more values: gain no single value shows, found
    /// only by holding each of those members at once.
    double needle_log_gain(const Route& route) const;

private:
    using Value = std::pair<std::string, std::string>;  // (knob, value)
    struct Rule {
        std::vector<Value> members;  // all of them set: the rule applies
        double log_effect = 0;       // for interactions
    };
    bool applies(const Rule& rule, const Route& route) const;
    void add_wide_features(SearchRng& rng, std::vector<Value>& values);
    LandscapeOptions options_;
    Expression expression_;
    std::map<std::pair<std::string, std::string>, double> effect_;  // (knob, value) -> log effect
    std::map<std::pair<std::string, std::string>, Status> failing_;
    std::vector<Rule> interactions_, failing_pairs_;  // interactions_ include synergies
};

}  // namespace routetune
