// Search strategies behind one interface. A strategy is a function of what has been
// evaluated so far (and its seed): it proposes the next candidates, never one already
// evaluated, and an empty proposal means it is finished. Because it keeps no state the
// history cannot rebuild, `--continue` resumes any strategy by replaying the history.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/expression.hpp"
#include "routetune/route.hpp"
#include "routetune/status.hpp"

namespace routetune {

/// What a strategy may know of one finished evaluation.
struct Observation {
    Route route;
    Status status = Status::Pending;
    double median_s = 0;    ///< meaningful when status is Ok; when paired, the default's median
                            ///< over the paired speedup (a drift-free time: ranking by it ranks by
                            ///< the paired speedup), else the evaluation's own median
    double ci_low_s = 0;    ///< 95% interval of median_s (when paired: from the speedup's interval)
    double ci_high_s = 0;
    std::string same_as;    ///< as Evaluation::same_as: the figures are that route's, not a measurement of its own
    bool paired = false;    ///< the figures come from rounds paired with the default's
};

/// What a strategy may know of e: its figures from speedup_against_default against
/// default_evaluation when e has paired rounds, else (old stores, [timing] paired = false, no
/// default) its own median and interval; and whose measurement they are (same_as).
Observation observe(const Evaluation& e, const Evaluation* default_evaluation);

/// route as a strategy sees it while it is built or measured: Status::Pending, no figures.
Observation pending_observation(const Route& route);

/// The route whose measurement obs's figures are, as reports print it ("(default)" for the
/// default route): obs.same_as, or obs's own route. Two observations with the same answer
/// are one artifact run once: their difference is no effect, never a gain.
std::string measured_as(const Observation& obs);

/// The evaluations so far, in the order they finished; the default route's among them.
struct SearchHistory {
    std::vector<Observation> observations;
    double min_gain = 0.02;  ///< a route "beats" the default when confidently this much faster

    /// The observation of route, or nullptr.
    const Observation* find(const Route& route) const;
    /// The default route's observation (the empty route), or nullptr.
    const Observation* default_observation() const;
    /// True when obs and reference are Ok and obs's CI upper end is below reference's CI
    /// lower end divided by (1 + min_gain); against the default's observation (the empty
    /// route), beats_default.
    bool beats(const Observation& obs, const Observation& reference) const;
    /// True when obs and the default are Ok and obs is confidently min_gain faster: paired,
    /// the lower end of its speedup interval is above 1 + min_gain (obs's CI upper end below
    /// the default's median / (1 + min_gain)); unpaired, obs's CI upper end is below the
    /// default's CI lower end / (1 + min_gain).
    bool beats_default(const Observation& obs) const;
};

/// Tuning of a strategy.
struct StrategyOptions {
    std::uint64_t seed = 1;
    int mixed_max_knobs = 4;
};

/// Proposes candidates.
class Strategy {
public:
    virtual ~Strategy() = default;
    /// The strategy's name ("fast", "full", "mixed", "random", ...).
    virtual std::string name() const = 0;
    /// Up to max_count routes not yet in history, in the order to evaluate them; empty when
    /// the strategy has nothing more to propose. Deterministic for a given history and seed.
    /// A route with any observation, pending included, counts as in history: to re-run
    /// interrupted candidates, pass a history without their pending observations.
    virtual std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) = 0;
    /// The phase label recorded with a route it proposed ("fast", "mixed-2", ...).
    virtual std::string phase_of(const Route& route, const SearchHistory& history) const = 0;
    /// True when each result changes what it proposes next (a sequential search, as growth):
    /// a route proposed before the results in flight come back is proposed without them, so
    /// the scheduler then starts only as many as keep its build slots and lanes busy.
    virtual bool sequential() const { return false; }
};

/// A strategy by name over expression; throws UsageError listing the names otherwise.
std::unique_ptr<Strategy> make_strategy(std::string_view name, const Expression& expression,
                                        const StrategyOptions& options);

/// The names make_strategy accepts, sorted.
std::vector<std::string> strategy_names();

/// The expansion a strategy with a fixed list of candidates replays ("fast", "full",
/// "mixed"); throws UsageError listing those names otherwise.
ExpansionMode expansion_mode_from_string(std::string_view text);

}  // namespace routetune
