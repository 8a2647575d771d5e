// What an interleaved confirmation will cost, from what the study has timed: its passes over
// every route (each pass runs every build of every route once, each run costing what one run
// of the default's cases cost), plus, on fresh builds, the builds in waves of --jobs. The
// scheduler keeps this much (and one measurement) free before --time-limit, and the
// confirmation checks that it still fits before it starts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/spec.hpp"
#include "eval/evaluator.hpp"

namespace routetune {

/// One confirmation's cost, term by term.
struct ConfirmationCost {
    int passes = 0;               ///< confirm_rounds, plus the warm-up pass when the spec has warm-ups
    std::size_t routes = 0;       ///< routes confirmed, the default included
    int builds = 1;               ///< builds of each route (confirm_builds on fresh builds, else the kept one)
    double run_s = 0;             ///< one run of one route over every case
    std::size_t build_waves = 0;  ///< rounds of --jobs builds at once (0: the kept builds are reused)
    double build_s = 0;           ///< the slowest build among the routes

    /// passes × routes × builds × run_s + build_waves × build_s.
    double total_s() const;
    /// "2 passes × 3 routes × 3 builds × 1.2 s per run + 2 waves of 8 builds × 37 s".
    std::string describe() const;
};

/// The cost of confirming routes_build_s.size() routes (the default first) whose builds took
/// routes_build_s seconds, with jobs builds at once, each run of one route costing run_s.
ConfirmationCost confirmation_cost(const TimingSpec& timing, int jobs, double run_s,
                                   const std::vector<double>& routes_build_s);

/// One run of the default over every case, as its measurement timed it (baseline's wall times).
double default_run_s(const RunBaseline& baseline);

/// The cost of the confirmation the study would run now: the default and the routes that would
/// be confirmed among evaluations, the slots of confirm_top not yet filled counted at the
/// default's build time (the search may still fill them).
ConfirmationCost planned_confirmation(const TimingSpec& timing, int jobs, double run_s,
                                      const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation);

}  // namespace routetune
