// Quoting argv items as POSIX shell words, for printing flags that Make, CMake or a CI script
// splits again.
#pragma once

#include <string>
#include <vector>

namespace routetune {

/// item unchanged when it holds only characters no shell treats specially, else in single
/// quotes (each ' written as '\''); "" becomes ''.
std::string shell_quote(const std::string& item);

/// The items as shell words separated by single spaces.
std::string shell_words(const std::vector<std::string>& items);

}  // namespace routetune
