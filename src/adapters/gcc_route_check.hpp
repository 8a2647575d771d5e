// GCC's own account of a flag list, for the route check (route_checker.hpp): the option
// states of `gcc -Q --help=optimizers --help=params --help=target FLAGS`.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/route_checker.hpp"
#include "routetune/catalog.hpp"

namespace routetune {

/// The warnings of a compile that say a flag was dropped ("disabled", "ignored", "not
/// supported"), by the flag they are about (the line's first quoted item, in ASCII or Unicode
/// quotes): "-fassociative-math" -> "cc1: warning: '-fassociative-math' disabled; ...".
std::map<std::string, std::string> parse_gcc_option_warnings(std::string_view diagnostics);

/// The value GCC's account gives knob, in the route's terms. A warning about the knob's flag
/// (states "warning:FLAG", from parse_gcc_option_warnings) means the flag was dropped: the
/// other value of a switch, or "" (another value). Else its option state
/// (parse_gcc_option_states): "on"/"off" for a switch's [enabled]/[disabled], else the printed
/// value (a spelling GCC treats as the same value, such as -mfpmath=both for 387+sse, reads as
/// asked). nullopt when GCC states none: -O (no line), asked "native" (GCC prints the CPU it
/// found), a blank or "[default]" state.
std::optional<std::string> gcc_reported_value(const Knob& knob, const std::string& asked,
                                              const std::map<std::string, std::string>& states);

/// The account source of the GCC of identity (its path, run in the C locale): the states of
/// `-Q --help=optimizers --help=params --help=target FLAGS` (nullopt when it fails) and the
/// warnings of `FLAGS -fsyntax-only -x c /dev/null` (none when that run fails).
AccountSource gcc_account_source(const CompilerIdentity& identity);

}  // namespace routetune
