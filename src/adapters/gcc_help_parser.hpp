// Pure text parsing of GCC's option help (`gcc -Q --help=optimizers|params|target`) and of
// its "valid arguments" diagnostics into knobs. No process is run here: the adapter feeds the
// captured text in, so tests can use fixtures of several GCC versions.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// Knobs of `gcc -Q --help=optimizers` output, tagged "optimizer" (and "unsafe" where the
/// knob changes semantics or ABI); the -O lines are skipped (see make_gcc_opt_level_knob).
/// language ("C", "C++") keeps the options GCC marks "[available in ...]" for it. The same
/// holds for the two parsers below.
std::vector<Knob> parse_gcc_optimizers(std::string_view text, std::string_view language = "C");

/// Knobs `-param:NAME` of `gcc -Q --help=params` output, tagged "param". Ranged params get
/// their printed range; unranged integer params are unbounded; enum params without a printed
/// value list are open enums (values filled in by probing).
std::vector<Knob> parse_gcc_params(std::string_view text, std::string_view language = "C");

/// Knobs `-mNAME` of `gcc -Q --help=target` output, tagged "target", with enum values from
/// the "Known ... (for use with the -mNAME= option)" sections; `native` is added to
/// -march/-mtune.
std::vector<Knob> parse_gcc_target(std::string_view text, std::string_view language = "C");

/// Fills the empty help of knobs from `gcc --help=optimizers --help=params --help=target`
/// output (without -Q: one description per option, wrapped lines joined); options GCC marks
/// "This option lacks documentation." stay without help.
void add_gcc_descriptions(std::vector<Knob>& knobs, std::string_view text);

/// The state of every option line of `gcc -Q --help=...` output, keyed by knob name: a
/// switch as "-fname" ("[enabled]", "[disabled]", "" when GCC prints none), a value option as
/// "-fname=" or "-param:NAME=" (the value as printed, e.g. "fast", "8", "[default]"). The first
/// line of an option wins.
std::map<std::string, std::string> parse_gcc_option_states(std::string_view text);

/// The values of a "valid arguments to 'OPTION' [switch ]are: a b c" note in a GCC
/// diagnostic; empty when there is none.
std::vector<std::string> parse_gcc_valid_arguments(std::string_view diagnostics);

/// The -O level of base flags: the value of the last -O flag ("-O" alone is "1"), "0" when
/// there is none.
std::string gcc_opt_level(const std::vector<std::string>& base_flags);

/// The `-O` knob: enum 0 1 2 3 s fast g z, default gcc_opt_level(base_flags).
Knob make_gcc_opt_level_knob(const std::vector<std::string>& base_flags);

/// True for GCC knobs that change semantics or ABI (the list and its reasons are in
/// gcc_knob_tags.cpp).
bool is_unsafe_gcc_knob(std::string_view name);

/// Tags "inactive-at-O0" on optimizer and param knobs that have no effect without
/// optimisation (every one but the unsafe ones and a short list of code generation flags
/// that act at -O0 too).
void tag_inactive_at_o0(std::vector<Knob>& knobs);

}  // namespace routetune
