// One rule for what a case's run says about a route, shared by the study's evaluator and the
// governance regression run: a case of the component-failure class (a dependency of the program
// is absent: a missing input file, an unreachable service) passes when the run ends the way the
// spec expects (a clean non-zero exit, or a run that copes and prints the right output); every
// other case passes when it runs ok and its output passes the accuracy check.
#pragma once

#include <string>

#include "eval/accuracy.hpp"
#include "eval/candidate_run.hpp"
#include "routetune/spec.hpp"

namespace routetune {

/// What one run of one case shows.
struct CaseVerdict {
    Status status = Status::Ok;  ///< ok, inaccurate, or the run's failure
    double loss = 0;             ///< the accuracy loss (0 when no output was compared)
    std::string message;         ///< why it failed: a run failure's own message (naming the case), an
                                 ///< inaccuracy's reason alone; empty when it passed
    double threshold = 0;        ///< the loss the case's class allows (accuracy_rule_for)
};

/// True when test_case's output is compared with a reference (it is expected to run ok).
bool compares_output(const CaseSpec& test_case);

/// True when test_case's runs are timed: every case except component-failure ones, which are a
/// check run once per route and never part of a route's time.
bool is_timed(const CaseSpec& test_case);

/// Judges run of test_case: the one per-case gate of tuning, promotion, verification and review.
/// A case expecting "run_failed" passes on a non-zero exit (with expect_exit, that code); a run
/// that exits 0 instead is inaccurate, a crash or timeout keeps its status, a wrong exit code is
/// run_failed. A case expecting "ok" must run ok and, when reference is non-null, pass the rule
/// of its class (accuracy_rule_for(accuracy, test_case.case_class)) against it.
CaseVerdict judge_case_run(const AccuracySpec& accuracy, const CaseSpec& test_case, const CaseRun& run,
                           const std::string* reference);

}  // namespace routetune
