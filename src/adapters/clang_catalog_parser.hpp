// Parsers for what Clang says about itself: the driver's option list (`--autocomplete=-f`),
// the CPUs of its target (`--print-supported-cpus`) and LLVM's own options
// (`-mllvm --help-list-hidden` for names, types and enum values; `-mllvm --print-all-options`
// for defaults).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// The name and help text of each line "NAME<TAB>HELP" of `clang --autocomplete=PREFIX`.
std::vector<std::pair<std::string, std::string>> parse_clang_autocomplete(std::string_view text);

/// Bool knobs (on|off, default unknown) for the optimisation switches among entries: `-f`
/// switches whose names belong to optimisation families (clang_knob_selection.cpp), tagged
/// "optimizer"; `-m` switches that have a `-mno-` form, tagged "target". Unsafe ones are tagged
/// "unsafe". Nothing here says that clang honours them: the adapter probes that.
std::vector<Knob> clang_switch_knobs(const std::vector<std::pair<std::string, std::string>>& entries);

/// The CPU names listed by `clang --print-supported-cpus` (the lines after "Available CPUs
/// for this target:").
std::vector<std::string> parse_clang_cpus(std::string_view text);

/// The CPUs of clang's note for an unknown one ("valid target CPU values are: a, b, c"): only
/// those valid in the current target mode (no i386 for x86_64).
std::vector<std::string> parse_clang_valid_cpus(std::string_view diagnostics);

/// Knobs `-mllvm:NAME` for the LLVM options of optimisation families (for target options only
/// those of target_prefix, e.g. "x86-"): help_list gives the type (no value: Bool; <int>:
/// Int; <uint>: Int 0..4294967295; <value> with `=v` lines: Enum), print_all the default
/// (`--NAME = V (default: D)`). Options of other types or without a printed default are left
/// out. Tagged "mllvm".
std::vector<Knob> parse_llvm_options(std::string_view help_list, std::string_view print_all,
                                     const std::string& target_prefix);

/// The arguments of a cc1 line as `clang -###` prints it: each between double quotes, a
/// backslash escaping the next character (`"-O2" "-mllvm" "-x=1"` -> -O2, -mllvm, -x=1).
std::vector<std::string> parse_cc1_arguments(std::string_view line);

/// The prefix of LLVM's options for the target triple's architecture ("x86-" for x86_64-...);
/// empty when unknown.
std::string llvm_target_prefix(std::string_view triple);

/// True for clang knobs that change semantics or ABI: GCC's list (is_unsafe_gcc_knob) plus
/// clang's own floating-point switches and LLVM's unsafe-math options.
bool is_unsafe_clang_knob(std::string_view name);

/// True when the `-f` switch (without "-f") belongs to an optimisation family.
bool is_clang_optimisation_switch(std::string_view name);

/// True when the LLVM option belongs to an optimisation family (for target options: of
/// target_prefix).
bool is_llvm_optimisation_option(std::string_view name, const std::string& target_prefix);

}  // namespace routetune
