// The order of a route's flags on the command line. Umbrella flags set other knobs as a side
// effect, and for GCC and Clang the later flag wins: `-fassociative-math -fno-fast-math` ends
// with associative math off. So umbrellas go first, broadest first, and every knob they touch
// that the route names comes after them and keeps the route's value (gcc, clang, nvcc).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routetune/route.hpp"

namespace routetune {

/// How early knob_name's flag goes: 0 for `-O`, then `-march`, `-mtune`/`-mcpu`, `-ffp-model`,
/// `-ffast-math` (nvcc's `-use_fast_math`), `-funsafe-math-optimizations`/`-ffinite-math-only`;
/// every other knob umbrella_rank_last.
int umbrella_rank(std::string_view knob_name);

/// The rank of every knob that is no umbrella.
inline constexpr int umbrella_rank_last = 6;

/// The route's assignments in command-line order: by umbrella_rank, then by knob name.
std::vector<std::pair<std::string, std::string>> umbrella_first(const Route& route);

}  // namespace routetune
