// What the confirmation phase reports while it runs: which round of the interleaved
// re-measurement is under way, for how many routes; with tune --minimize, which removal from
// the winner is being judged.
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

/// Where the shrinking of the winner (tune --minimize) stands.
struct MinimizationProgress {
    std::size_t trial = 0;    ///< the removal now judged, from 1
    std::size_t changes = 0;  ///< changes of the route it removes from
    std::size_t removing = 0; ///< how many of them this trial removes
    double elapsed_s = 0;     ///< the study's elapsed time (set by the study runner)
};

/// Receives the minimization's progress at the start of each trial.
using MinimizationProgressCallback = std::function<void(const MinimizationProgress&)>;

}  // namespace routetune
