// Shared by fast, full and mixed: walking an expansion stream and keeping the routes that no
// observation (of the same route or an equivalent one) covers yet.
#pragma once

#include <cstddef>
#include <vector>

#include "routetune/expression.hpp"
#include "search/search_space.hpp"

namespace routetune {

/// True when route, or a route of the same point, has an observation.
bool route_taken(const SearchSpace& space, const PointHistory& taken, const SearchHistory& history,
                 const Route& route);

/// Up to max_count routes of expand(expression, mode), in order, that are not taken (two
/// equivalent routes of the stream count once).
std::vector<Route> untaken_expansion(const Expression& expression, ExpansionMode mode,
                                     const SearchSpace& space, const SearchHistory& history,
                                     std::size_t max_count);

}  // namespace routetune
