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
    double interval_spread = 0;      ///< log sd of an interval's half width around 1.5 noise_sd (0: every interval that width)
    double base_time_s = 1.0;        ///< the default route's true time
    std::size_t small_gains = 0;     ///< values that speed the workload up by small_gain_min-max
    double small_gain_min = 0.02;
    double small_gain_max = 0.05;
    std::size_t int_knobs = 0;       ///< ordered int knobs -pNNN of 10 values, best far from the default
    std::size_t synergy_pairs = 0;   ///< pairs of values that gain 3-6% together
    std::size_t synergy_triples = 0; ///< triples of values that gain 3-6% together
    double synergy_gain_min = 0.03;  ///< a synergy's gain together (log), drawn in [min, max]
    double synergy_gain_max = 0.06;
    bool synergy_members_cost = false;  ///< members' own effects are costs (else either sign)
    bool synergy_on_flags = false;      ///< members only on knobs of one non-default value (on/off flags)
    double synergy_marginal_min = 0; ///< each synergy member's own log effect: +-[min, max], either sign
    double synergy_marginal_max = 0; ///< (0: members do nothing alone, the needles of --shape wide-needles)
    std::size_t family_knobs = 0;    ///< enum knobs -famN of 24 values: a family of 6 that gains, 4 that fail
    std::size_t doors = 0;           ///< small gains each shut out by a value of another knob that does nothing
                                     ///< alone (as GCC's -param:unroll-jam-max-unroll=1 shuts out
                                     ///< -param:unroll-jam-min-percent=0's 16% on the stencil)
    double int_gain_min = 0.03;      ///< an int knob's gain at its best value, drawn in [min, max]
    double int_gain_max = 0.06;

    /// The issue-13 shape ("a modelled *=~"): many small gains, synergy pairs and triples whose
    /// members carry small effects of their own (0.5-2%, either sign, as the recorded GCC studies
    /// show), int knobs whose best value is far from the default, enum families, 2% failing
    /// values and fast-but-wrong values; knobs sets the size (1000 knobs: about 1700 fast
    /// candidates).
    static LandscapeOptions wide(std::size_t knobs, std::uint64_t seed);
    /// wide() with synergy members that do nothing alone (needles): a diagnostic, not a target.
    static LandscapeOptions wide_needles(std::size_t knobs, std::uint64_t seed);
    /// The shape of GCC's `*=~`, for a landscape over GCC's own knobs (the constructor that
    /// takes an expression): -O levels (-O3 gains, -Ofast is fast but wrong), -march=native
    /// gains and some -march values crash, -mtune a family of which a few values gain, int
    /// params whose best value is far from their default, many small gains (1-5%; thin: 1-2%,
    /// more of them and nothing large), a triple whose members each cost about 1% alone and
    /// gain 10-15% together (three on/off flags, as GCC's synergies are between optimisation
    /// passes), 2% failing values (3% thin), failing pairs, a fast-but-wrong value.
    static LandscapeOptions gcc(std::uint64_t seed, bool thin);
    /// gcc(seed, false) with four of its small gains each shut out by a door (a diagnostic of
    /// growth's rule "hold what does not cost time", not a target).
    static LandscapeOptions gcc_doors(std::uint64_t seed);
};

/// A deterministic landscape: the same route always gets the same observation.
class SyntheticLandscape {
public:
    /// Draws a landscape from options over knobs of its own (-kNNN, -pNNN, -famN).
    explicit SyntheticLandscape(const LandscapeOptions& options);
    /// Draws a landscape from options over the axes of space (a compiler's knobs, e.g. GCC's
    /// `*=~`): options.knobs is not used; -O, -march, -mtune and int params get the compiler
    /// features of LandscapeOptions::gcc, the other values the rest.
    SyntheticLandscape(const LandscapeOptions& options, Expression space);
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

    /// An interaction: the values that must all be set, and the log effect they add together.
    struct Interaction {
        std::vector<std::pair<std::string, std::string>> members;
        double log_effect = 0;
    };
    /// The landscape's interactions (pairs of values that matter, synergies), for diagnostics.
    std::vector<Interaction> interactions() const;

private:
    using Value = std::pair<std::string, std::string>;  // (knob, value)
    struct Rule {
        std::vector<Value> members;  // all of them set: the rule applies
        double log_effect = 0;       // for interactions
    };
    bool applies(const Rule& rule, const Route& route) const;
    /// The classic features: sub-noise effects and failing values over failing_values, strong,
    /// harmful, inaccurate values, failing pairs and interactions over values.
    void draw(SearchRng& rng, const std::vector<Value>& values, const std::vector<Value>& failing_values);
    /// Small gains and synergies over values.
    void add_wide_features(SearchRng& rng, std::vector<Value>& values);
    /// options.doors of gains (shuffled), each with a closer among values: a value of another knob
    /// that does nothing alone and, held beside the gain, cancels it.
    void add_doors(std::vector<Value> gains, const std::vector<Value>& values);
    /// The -pNNN int axes and -famN family axes of the wide shape.
    void add_own_axes(SearchRng& rng);
    /// Effects of -O, -march, -mtune and options.int_knobs int params of expression_; returns the
    /// non-default values of every other axis but the params, whose values go to params.
    std::vector<Value> add_compiler_features(SearchRng& rng, std::vector<Value>& params);
    /// Effects of knob's values ordered (ordered[def] its default): a bell-shaped gain of gain at
    /// ordered[peak], 1.2 steps wide, relative to the default's.
    void add_bell(const std::string& knob, const std::vector<std::string>& ordered, std::size_t def, std::size_t peak,
                  double gain);
    /// Effects of knob's non-default values, shuffled: the first gains 3-6%, the next five 0.3-0.9
    /// of that, the next `failing` fail to build, the rest are up to 5% slower; gainer (when one
    /// of values) is among the six that gain.
    void add_family(const std::string& knob, std::vector<std::string> values, SearchRng& rng, std::size_t failing,
                    const std::string& gainer = "");
    void index_axes();
    LandscapeOptions options_;
    Expression expression_;
    std::map<std::string, std::string> default_of_;  // knob -> its default value
    std::map<std::pair<std::string, std::string>, double> effect_;  // (knob, value) -> log effect
    std::map<std::pair<std::string, std::string>, Status> failing_;
    std::vector<Rule> interactions_, failing_pairs_;  // interactions_ include synergies
};

}  // namespace routetune
