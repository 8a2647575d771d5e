// The defaults of Clang's switches, which clang never prints: told from what the driver
// does with each form compared with what it does with the base flags alone.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// What the driver makes of the base flags plus flags: the cc1 command line of `clang -###`
/// (an I/O boundary: tests fake it). Must be thread-safe.
using DriverLine = std::function<std::string(const std::vector<std::string>& flags)>;

/// "on" when the on form changes nothing and the off form does, "off" for the reverse, ""
/// when both or neither change anything.
std::string switch_default(const std::string& base, const std::string& with_on, const std::string& with_off);

/// Sets the default of every `-f` Bool knob of knobs from switch_default over driver lines
/// (two per knob, run concurrently); `-m` knobs are left alone.
void set_optimizer_defaults(std::vector<Knob>& knobs, const DriverLine& driver);

/// The names defined by `#define NAME ...` lines (the output of `clang -dM -E`).
std::set<std::string> defined_macros(std::string_view text);

/// The feature macro of a `-m` switch: `-mavx2` → `__AVX2__`, `-msse4.1` → `__SSE4_1__`.
std::string clang_feature_macro(const std::string& switch_name);

/// Sets the default of every `-m` Bool knob: "on" when its feature macro (`-mavx2` →
/// `__AVX2__`, `-msse4.1` → `__SSE4_1__`) is defined at the base flags, "off" when it is only
/// defined with every `-m` knob turned on (all_on), else left empty.
void set_target_defaults(std::vector<Knob>& knobs, const std::set<std::string>& base,
                         const std::set<std::string>& all_on);

}  // namespace routetune
