// What the confirmation phase reports while it runs: which round of the interleaved
// re-measurement is under way, for how many routes.
#pragma once

#include <cstddef>
#include <functional>

namespace routetune {

/// Where the confirmation stands.
struct ConfirmationProgress {
    std::size_t routes = 0;  ///< candidates still confirmed against the default (the default not counted)
    int round = 0;           ///< the round now running, from 1; 0 is the warm-up pass
    int rounds = 0;          ///< rounds in all
    double elapsed_s = 0;    ///< the study's elapsed time (set by the study runner)
};

/// Receives the confirmation's progress at the start of each round.
using ConfirmationProgressCallback = std::function<void(const ConfirmationProgress&)>;

}  // namespace routetune
