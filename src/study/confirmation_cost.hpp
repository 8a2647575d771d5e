// What an interleaved confirmation will cost, from what the study has timed: its passes over
// every route (each pass runs every build of every route once; a build's first run costs what
// that route's measured build's first run cost, which in a warm measurement process includes
// loading the build but not the process's own first request (an Inductor model's trace, paid once
// per process), and every later run what that route's later runs cost; a route the study has no
// run costs of, and a slot the search may still fill, cost what the default's runs cost), plus,
// on fresh builds, the builds in waves of --jobs. The scheduler keeps this much (and one
// measurement) free before --time-limit, and the confirmation checks that it still fits before
// it starts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/spec.hpp"
#include "eval/evaluator.hpp"
#include "eval/run_cost.hpp"

namespace routetune {

/// One route of a confirmation: its build's time and what one run of it costs.
struct RouteToConfirm {
    double build_s = 0;
    RunCost run;
};

/// One confirmation's cost, term by term.
struct ConfirmationCost {
    int passes = 0;               ///< confirm_rounds, plus the warm-up pass when the spec has warm-ups
    std::size_t routes = 0;       ///< routes confirmed, the default included
    int builds = 1;               ///< builds of each route (confirm_builds on fresh builds, else the kept one)
    double runs_s = 0;            ///< every run: the sum over routes of builds × (first + (passes - 1) × later run)
    RunCost cheapest;             ///< the lowest first run and the lowest later run among the routes (describe)
    RunCost dearest;              ///< the highest of each among the routes (describe)
    std::size_t build_waves = 0;  ///< rounds of --jobs builds at once (0: the kept builds are reused)
    double build_s = 0;           ///< the slowest build among the routes

    /// runs_s + build_waves × build_s.
    double total_s() const;
    /// "2 passes x 3 routes x 3 builds x 1.2 s per run + 2 waves of fresh builds x 37 s", with
    /// "(5.5 s a build's first)" after the run time where a first run costs more, and ranges
    /// ("0.55-0.6 s per run (0.55-3.6 s a build's first)") where routes' runs cost differently.
    std::string describe() const;
};

/// The cost of confirming routes (the default first), with jobs builds at once.
ConfirmationCost confirmation_cost(const TimingSpec& timing, int jobs, const std::vector<RouteToConfirm>& routes);

/// One run of the default over every case, as its measurement timed it (baseline's wall times,
/// by run_cost's rule).
RunCost default_run_cost(const RunBaseline& baseline);

/// What one run of e costs: its own measurement's (Evaluation::run_first_s, run_repeat_s), or
/// otherwise where it has none (not measured here, or read from an older store).
RunCost route_run_cost(const Evaluation& e, const RunCost& otherwise);

/// The cost of the confirmation the study would run now: the default (at default_run) and the
/// routes that would be confirmed among evaluations (each at its own runs), the slots of
/// confirm_top not yet filled counted at the default's build time and runs (the search may still
/// fill them).
ConfirmationCost planned_confirmation(const TimingSpec& timing, int jobs, const RunCost& default_run,
                                      const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation);

}  // namespace routetune
