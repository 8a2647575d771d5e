// What one run of a build over every case costs, from the wall times its measurement took: the
// rule shared by the default's record (the study's time plan) and every measured evaluation
// (Evaluation::run_first_s, run_repeat_s), so a confirmation is priced at each route's own runs.
#pragma once

#include <map>
#include <string>

namespace routetune {

/// One run of a build over every case: its first run and a later one.
struct RunCost {
    double first_s = 0;   ///< the build's first run (a warm process loads the build in it)
    double repeat_s = 0;  ///< a later run of the same build
};

/// The cost of one run over every case of repeat_s (case name -> a later run's wall time):
/// repeat_s summed, and first_s (case name -> the build's first run) summed, a case without a
/// first run counted at its later run and none below it.
RunCost run_cost(const std::map<std::string, double>& repeat_s, const std::map<std::string, double>& first_s);

}  // namespace routetune
