// Probing which knob values a GCC really accepts, by compiling a tiny program with them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// The outcome of one test compile.
struct ProbeCompile {
    bool accepted = false;     ///< the compiler exited 0
    std::string diagnostics;   ///< its stderr
};

/// Compiles the tiny program with the base flags plus flags (an I/O boundary: tests fake it).
using ProbeCompiler = std::function<ProbeCompile(const std::vector<std::string>& flags)>;

/// What one test compile says of one flag.
enum class FlagVerdict : char {
    Rejected,   ///< the compile failed because of it
    Accepted,   ///< it compiles and nothing says it is ignored
    Ignored,    ///< it compiles, but a warning names it as deprecated, unsupported or ignored
};

/// What probing did.
struct ProbeReport {
    std::size_t compiles = 0;          ///< test compiles run
    std::size_t rejected_values = 0;   ///< knob values removed or adjusted
    std::size_t dropped_knobs = 0;     ///< knobs with no accepted value left, or ignored
};

/// Which of flags compile: one compile for the whole batch; flags named in its errors are
/// rejected and the rest retried; a failure naming none is bisected down to the single flags
/// that fail on their own (flags failing only together count as accepted); flags of a
/// compiling batch that a warning names as deprecated, unsupported or ignored are Ignored.
/// The halves of a bisection compile concurrently, so compile must be thread-safe.
std::vector<FlagVerdict> probe_flags(const std::vector<std::string>& flags, const ProbeCompiler& compile,
                              std::size_t& compiles);

/// Restricts knobs to what compile accepts: bool forms, enum values and int bounds are probed
/// in batches (round k holds the k-th value of every enum); -march, -mtune and open enum params
/// get their values from the compiler's "valid arguments" note for a bogus value; a rejected
/// int bound moves one step inwards and is probed again; knobs left with no usable value are
/// removed. Target options with an open value (-mstore-max=) take the compiler's "valid
/// arguments" list for a bogus value when it gives one, and become enums. A switch whose
/// on or off form is Ignored (-mmpx: "no longer supported") is removed; an ignored enum or
/// int value counts as rejected.
ProbeReport probe_gcc_knobs(std::vector<Knob>& knobs, const ProbeCompiler& compile);

}  // namespace routetune
