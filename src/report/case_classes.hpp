// Results by case class (normal, boundary, misuse, component-failure): which cases each class holds and how many
// finished evaluations passed or failed that class. The classes come from the study's spec
// (at its recorded path); a spec that no longer loads gives no classes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "routetune/study.hpp"

namespace routetune {

/// One class of cases over a study.
struct ClassResult {
    std::string case_class;
    std::vector<std::string> cases;           ///< tuned cases of the class
    std::vector<std::string> promotion_only;  ///< cases of the class tuning does not run
    std::size_t passed = 0;                   ///< evaluations whose every case of the class was ok
    std::size_t failed = 0;                   ///< evaluations with a case of the class not ok
};

/// The classes of summary's spec in the order of case_class_names() (only those present).
std::vector<ClassResult> results_by_class(const StudySummary& summary);

/// "normal: typical (3 passed, 1 failed); boundary: nan_inf (promotion-only)".
std::string class_summary_text(const std::vector<ClassResult>& classes);

}  // namespace routetune
