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
    /// Noiseless speedup of best_route() over the default route.
    double best_speedup() const;

private:
    struct Rule {
        std::string knob_a, value_a, knob_b, value_b;
        double log_effect = 0;  // for interactions
    };
    LandscapeOptions options_;
    Expression expression_;
    std::map<std::pair<std::string, std::string>, double> effect_;  // (knob, value) -> log effect
    std::map<std::pair<std::string, std::string>, Status> failing_;
    std::vector<Rule> interactions_, failing_pairs_;
};

}  // namespace routetune
