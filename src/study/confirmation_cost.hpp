// What an interleaved confirmation will cost, from what the study has timed: its passes over
// every route (each pass runs every build of every route once; a build's first run costs what
// the default build's first run cost, which in a warm measurement process includes loading the
// build but not the process's own first request (an Inductor model's trace, paid once per
// process), and every later run what the default's later runs cost), plus, on fresh builds, the
// builds in waves of --jobs. The
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
    double first_run_s = 0;       ///< a build's first run over every case (a warm process loads it)
    double run_s = 0;             ///< any later run of that build over every case
    std::size_t build_waves = 0;  ///< rounds of --jobs builds at once (0: the kept builds are reused)
    double build_s = 0;           ///< the slowest build among the routes

    /// routes × builds × (first_run_s + (passes - 1) × run_s) + build_waves × build_s.
    double total_s() const;
    /// "2 passes x 3 routes x 3 builds x 1.2 s per run + 2 waves of fresh builds x 37 s", with
    /// "(5.5 s a build's first)" after the run time where a first run costs more.
    std::string describe() const;
};

/// What one run of the default over every case cost: its build's first run and a later one.
struct RunCost {
    double first_s = 0;   ///< the first run of a build (a warm process loads the build in it)
    double repeat_s = 0;  ///< a later run of the same build
};

/// The cost of confirming routes_build_s.size() routes (the default first) whose builds took
/// routes_build_s seconds, with jobs builds at once, each run of one route costing as run does.
ConfirmationCost confirmation_cost(const TimingSpec& timing, int jobs, const RunCost& run,
                                   const std::vector<double>& routes_build_s);

/// One run of the default over every case, as its measurement timed it (baseline's wall times):
/// repeat_s the median runs', first_s its build's first run (never below repeat_s; repeat_s
/// where the study did not record it).
RunCost default_run_cost(const RunBaseline& baseline);

/// The cost of the confirmation the study would run now: the default and the routes that would
/// be confirmed among evaluations, the slots of confirm_top not yet filled counted at the
/// default's build time (the search may still fill them).
ConfirmationCost planned_confirmation(const TimingSpec& timing, int jobs, const RunCost& run,
                                      const std::vector<Evaluation>& evaluations, const Evaluation& default_evaluation);

}  // namespace routetune
