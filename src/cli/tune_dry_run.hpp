// `tune --dry-run`: what a study would evaluate, or with --continue what remains of one.
#pragma once

#include <ostream>

#include "study/study_setup.hpp"
#include "study/tune_options.hpp"

namespace routetune::cli {

/// Prints the plan of setup to out (JSON when json): the candidates of an enumerated search
/// (fast, full, mixed phase one, with mixed's phase-two bound), or for an adaptive strategy
/// the space and the budget. With options.resume it reads the study in the store and leaves
/// out what finished there ("remaining"), or throws UsageError when there is none. Runs nothing.
int print_dry_run(const StudySetup& setup, const TuneOptions& options, bool json, std::ostream& out);

}  // namespace routetune::cli
