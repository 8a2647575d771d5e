// GCC knob values as argv items, and a route applied on top of base flags.
#pragma once

#include <string>
#include <vector>

#include "routetune/catalog.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// The argv item that sets knob to value: -O3, -fname / -fno-name, -fname=value,
/// --param=name=value, -mname / -mno-name, -mname=value. Declared knobs with an argv
/// template get the template with {value} replaced.
std::string gcc_flag_for(const Knob& knob, const std::string& value);

/// True when the base flag flag sets the knob named knob_name (any of its forms: -O*,
/// -fx/-fno-x/-fx=..., --param=x=..., -mx/-mno-x/-mx=...).
bool gcc_flag_sets(const std::string& flag, const std::string& knob_name);

/// base_flags without every flag that sets a knob of route (including the two-item form
/// `--param NAME=V`), followed by the route's flags in umbrella_first order (-O, -march,
/// -ffast-math, ... before the knobs they touch). Knobs missing from
/// catalog throw UsageError (validate_route first for a better message).
std::vector<std::string> apply_gcc_route(const std::vector<std::string>& base_flags, const Route& route,
                                         const Catalog& catalog);

}  // namespace routetune
