// A -mllvm knob's value as the argv pair Clang's driver forwards to LLVM.
#include "adapters/clang_llvm_flags.hpp"

namespace routetune {

std::vector<std::string> llvm_option_flags(const Knob& knob, const std::string& value) {
    std::string option = knob.name.substr(kMllvmKnobPrefix.size());
    std::string text = knob.type == KnobType::Bool ? (value == "on" ? "true" : "false") : value;
    return {"-mllvm", "-" + option + "=" + text};
}

}  // namespace routetune
