// User-declared knobs ([[knob]] tables in a spec): how they join any adapter's catalog and
// how a route's values for them reach the build. Every adapter calls these two functions, so
// a template or macro parameter of a kernel is a knob whatever the compiler.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/catalog.hpp"
#include "routetune/knob.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// True when knob says itself how it is applied (an argv template or an environment name):
/// such a knob is applied by apply_declared_knobs, never by the adapter's own rules.
bool is_declared_knob(const Knob& knob);

/// Throws UsageError unless knob is a well-formed declaration: a valid name, at least one of
/// argv_template / env_name, an argv template containing "{value}", a valid environment
/// name, a default the knob allows (when given) and values for a bool or enum knob.
void validate_declared_knob(const Knob& knob);

/// Validates each declared knob and adds it to catalog, replacing a discovered knob of the
/// same name (the user's declaration wins); throws UsageError on two declarations of a name.
void add_declared_knobs(Catalog& catalog, const std::vector<Knob>& declared);

/// The argv item of template with every "{value}" replaced by value.
std::string substitute_value(std::string_view argv_template, std::string_view value);

/// For each assignment of route to a declared knob of catalog: appends the substituted argv
/// template to applied.flags and/or sets applied.environment[env_name] = value.
void apply_declared_knobs(const Route& route, const Catalog& catalog, AppliedRoute& applied);

}  // namespace routetune
