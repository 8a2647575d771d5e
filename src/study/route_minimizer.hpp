// Minimal routes: the winner of a study without the changes that do not pay for themselves.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "routetune/route.hpp"
#include "study/change_blocks.hpp"

namespace routetune {

/// True when candidate is slower than reference with confidence, or fails: the judge of one
/// removal (in a study: both built and measured interleaved; in a benchmark: modelled samples).
using CostsTime = std::function<bool(const Route& reference, const Route& candidate)>;

/// What minimize_route found.
struct MinimizedRoute {
    Route route;                       ///< the winner without the changes that were removed
    std::vector<std::string> removed;  ///< knobs put back to the baseline
    std::size_t trials = 0;            ///< candidates judged
    bool cut_short = false;            ///< max_trials ran out before the search ended
};

/// The trials a minimization of a winner of `changes` changes may spend after a study of
/// study_builds builds: a fifth of the study's builds (never fewer than 16), and never more than
/// 2 x changes + 8 (enough for any winner whose changes mostly matter).
std::size_t minimization_trials(std::size_t changes, std::size_t study_builds);

/// Adaptive group testing of winner's changes against baseline: groups of changes are put
/// back to the baseline's value, and a removal stays when costs_time(current route,
/// candidate) is false; the result is checked with costs_time(winner, result) and what made
/// it slower is put back. blocks (change_blocks of the study's history; may be empty) guide
/// it: the blocks that did not pay are group-tested whole (the least gain first), each block
/// kept is cut in halves down to the change that pays, and what is left is group-tested
/// (changes of winner in no block too). At most max_trials judgements, a fifth of which is
/// kept for the check against the winner: the result is never a route known to be slower.
MinimizedRoute minimize_route(const Route& winner, const Route& baseline, const std::vector<ChangeBlock>& blocks,
                              const CostsTime& costs_time, std::size_t max_trials);

}  // namespace routetune
