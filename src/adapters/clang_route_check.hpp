// Clang's own account of a flag list, for the route check (route_checker.hpp). Clang has no
// `-Q --help=...`: its account is the cc1 line of `clang -###` (what the driver makes of the
// whole command line, umbrellas and the order of flags included) and, where a route sets an
// ISA extension, the feature macros of `clang -dM -E`.
#pragma once

#include <optional>
#include <string>

#include "adapters/route_checker.hpp"
#include "routetune/catalog.hpp"

namespace routetune {

/// The value clang's account states for knob: a `-mllvm:NAME` knob's value from the cc1
/// line's `-mllvm -NAME=V` (true/false as on/off); a `-m` switch whose feature macro
/// discovery saw (it has a default) "on" when the macro is defined, when the account holds the
/// macros. nullopt for every other knob: it is asserted once more instead.
std::optional<std::string> clang_reported_value(const Knob& knob, const std::string& asked,
                                                const CompilerAccount& account);

/// True when route sets a `-m` switch whose feature macro discovery saw, so the account
/// should hold the macros.
bool clang_route_needs_macros(const Route& route, const Catalog& catalog);

/// The account source of the clang of identity: the cc1 line (states "-mllvm:NAME" for its
/// -mllvm options, the rest compared whole) and, with macros, the defined macros.
AccountSource clang_account_source(const CompilerIdentity& identity, bool macros);

}  // namespace routetune
