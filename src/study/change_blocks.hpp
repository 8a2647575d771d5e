// The changes of a study's winner cut into blocks along the search's own measurements, for
// the minimization: the changes that arrived together in the search, and whether they paid.
#pragma once

#include <string>
#include <vector>

#include "routetune/route.hpp"
#include "routetune/strategy.hpp"

namespace routetune {

/// Changes of a winner that the search added in one step, and what that step measured.
struct ChangeBlock {
    std::vector<std::string> knobs;
    double gain = 0;    ///< log of the time before the step over the time after it (search medians)
    bool paid = false;  ///< the route after the step beat the route before it: intervals apart
};

/// The knobs in which winner differs from baseline, in blocks: along the longest chain of Ok
/// routes of history whose changes shared with winner grow (as a growing search's incumbents
/// do), a change belongs to the first route of the chain that shares it; a
/// step pays when its route's interval lies below the route before it (SearchHistory::beats
/// with no minimum gain: the search's own statistics). The first link's changes, and changes
/// the chain never holds, are each a block of their own that paid (nothing says otherwise).
/// Blocks that did not pay come first, then the others by gain, smallest first.
std::vector<ChangeBlock> change_blocks(const Route& winner, const Route& baseline, const std::vector<Observation>& history);

}  // namespace routetune
