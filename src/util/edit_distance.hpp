// Levenshtein distance, for "did you mean" suggestions in messages.
#pragma once

#include <cstddef>
#include <string_view>

namespace routetune {

/// The number of single-character insertions, deletions and substitutions turning a into b.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace routetune
