// Which knobs mattered in a study: the search's additive model fitted to its ok evaluations.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "routetune/study.hpp"

namespace routetune {

/// The estimated effect of one knob value against leaving the knob at its default.
struct KnobEffect {
    std::string knob;
    std::string value;
    double speedup = 1;     ///< exp(-effect on log time): above 1 the value makes routes faster
    double low = 1;         ///< 2.5% and 97.5% points of the posterior draws of the speedup
    double high = 1;
    std::size_t routes = 0; ///< ok evaluations whose route sets this value
};

/// The AdditiveModel's posterior over the summary's ok evaluations, against the default's
/// median, with intervals from `draws` posterior samples (fixed seed: the same every time);
/// values seen in no ok route are left out; largest |log speedup| first, at most `limit`.
/// Empty without a timed default or with fewer than two ok routes.
std::vector<KnobEffect> knob_effects(const StudySummary& summary, std::size_t limit = 30,
                                     std::size_t draws = 200);

}  // namespace routetune
