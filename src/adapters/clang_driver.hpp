// Asking clang's driver about a flag list, for discovery and for the route check: the cc1
// line it would run, and the macros a preprocessing run defines.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "routetune/catalog.hpp"

namespace routetune {

/// The cc1 line (the line naming "-cc1") of `clang FLAGS -### -c -o /dev/null -x LANG -`, LANG
/// c++ when the executable's name has "++"; nullopt when the driver rejects flags or prints none.
std::optional<std::string> clang_cc1_line(const CompilerIdentity& identity, const std::vector<std::string>& flags,
                                          const std::filesystem::path& cwd);

/// The macros `clang FLAGS -dM -E -x c /dev/null` defines; nullopt when clang rejects flags.
std::optional<std::set<std::string>> clang_macros(const CompilerIdentity& identity, const std::vector<std::string>& flags,
                                                  const std::filesystem::path& cwd);

}  // namespace routetune
