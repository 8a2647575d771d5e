// How Clang's LLVM options are knobs: a knob `-mllvm:NAME` reaches the compiler as the argv
// pair `-mllvm -NAME=V`. The adapter applies routes with it and the route check reads them
// back with the same spelling.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// The prefix of every knob that is an LLVM option reached through -mllvm.
inline constexpr std::string_view kMllvmKnobPrefix = "-mllvm:";

/// The argv items of one -mllvm knob's value: {"-mllvm", "-NAME=V"}, bools as true/false.
std::vector<std::string> llvm_option_flags(const Knob& knob, const std::string& value);

}  // namespace routetune
