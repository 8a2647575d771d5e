// Replaying a strategy against known outcomes, with no builds and no runs: how many builds
// does it need to come close to the best known route?
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/expression.hpp"
#include "routetune/strategy.hpp"

namespace routetune {

/// The outcome of evaluating route; status Pending means "unknown" (not in a record).
using Oracle = std::function<Observation(const Route&)>;

/// How to replay.
struct SimulationOptions {
    std::size_t budget = 100;                 ///< builds per run
    std::vector<std::uint64_t> seeds = {1};   ///< one run per seed
    double target = 0.95;                     ///< fraction of the best known speedup to reach
    double min_gain = 0.02;                   ///< SearchHistory::min_gain
    int mixed_max_knobs = 4;
    std::size_t batch = 1;                    ///< routes asked for per proposal
    std::size_t in_flight = 0;                ///< when > 1: routes kept in flight, as the study's scheduler
                                              ///< does (each result, the oldest's, is followed by one
                                              ///< proposal, the others pending in the history); batch unused
};

/// One run of one seed.
struct SimulationRun {
    std::uint64_t seed = 0;
    std::vector<double> best_speedup;             ///< after build k+1: reference / best Ok median
    std::optional<std::size_t> builds_to_target;  ///< first build count reaching the target
    bool strategy_finished = false;               ///< the strategy ran out before the budget
    std::vector<Observation> history;             ///< every evaluation, in order (build one first)
};

/// All runs of one strategy.
struct SimulationReport {
    std::string strategy;
    double best_known_speedup = 1;
    std::vector<SimulationRun> runs;
    std::size_t reached = 0;                        ///< runs that reached the target
    std::optional<double> mean_builds_to_target;    ///< over the runs that reached it
    std::optional<double> median_builds_to_target;  ///< over all runs; a miss counts as infinite
    std::vector<double> mean_fraction;              ///< per build: mean of best_speedup / best known
};

/// Replays strategy against oracle. Build one is the baseline route (the reference of every
/// speedup, as in a study), then the strategy's proposals. A Pending observation is a spent build that reveals
/// nothing (it enters the history as pending, so it is not proposed again).
SimulationReport simulate(std::string_view strategy, const Expression& expression, const Oracle& oracle,
                          double best_known_speedup, const SimulationOptions& options);

/// Replays strategy against a recorded study: a route in the record reveals its observation
/// (equivalent spellings match), a route absent from it costs a build and reveals nothing.
/// The best known speedup is the record's: reference median / best Ok median.
SimulationReport simulate_recorded(std::string_view strategy, const Expression& expression,
                                   const std::vector<Observation>& record, const SimulationOptions& options);

/// The stand-in value of expression_from_record for "the knob left at its default".
inline constexpr const char* kRecordDefault = "(default)";

/// An expression covering what a record holds when its own expression cannot be parsed (no
/// spec or compiler at hand): one axis per knob seen, over the values seen; a knob that some
/// recorded route leaves unset also takes kRecordDefault, its default (routes leave it unset).
Expression expression_from_record(const std::vector<Observation>& record);

/// The report as a short human-readable text (summary and the curve at a few budgets).
std::string simulation_summary(const SimulationReport& report);

}  // namespace routetune
