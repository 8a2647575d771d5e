// GCC's own account of a flag list, for the route check (route_checker.hpp): the option
// states of `gcc -Q --help=optimizers --help=params --help=target FLAGS`.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "adapters/route_checker.hpp"
#include "routetune/catalog.hpp"

namespace routetune {

/// The value GCC's option states (parse_gcc_option_states) give knob, in the route's terms:
/// "on"/"off" for a switch's [enabled]/[disabled], else the printed value (a spelling GCC
/// treats as the same value, such as -mfpmath=both for 387+sse, reads as asked). nullopt when
/// GCC states none: -O (no line), asked "native" (GCC prints the CPU it found), a blank or
/// "[default]" state.
std::optional<std::string> gcc_reported_value(const Knob& knob, const std::string& asked,
                                              const std::map<std::string, std::string>& states);

/// The account source of the GCC of identity (its path, run in the C locale).
AccountSource gcc_account_source(const CompilerIdentity& identity);

}  // namespace routetune
