// The nvcc adapter's selection of tuning options: which options of `nvcc --help` and
// `ptxas --help` become knobs, how each is written on the command line, and the values or
// defaults to use where the help text prints none.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// How a knob's value is written.
enum class NvccForm {
    Flag,       ///< bool: on → "--name", off → nothing
    TrueFalse,  ///< bool: on|off → "--name=true|false"
    Value,      ///< enum or int: "--name=value"
};

/// One selected option.
struct NvccKnobSpec {
    std::string knob;                  ///< "-ftz", "-Xptxas:-O"
    bool ptxas = false;                ///< true: passed as "-Xptxas" "--name=value"
    std::string long_name;             ///< "--ftz", "--opt-level"
    std::string short_name;            ///< "-ftz", "-O": also recognised in base flags
    NvccForm form = NvccForm::Value;
    KnobType type = KnobType::Bool;
    std::vector<std::string> values;   ///< enum values when the help prints none
    std::int64_t min = 0;              ///< int range when the help prints none
    std::int64_t max = 0;
    std::string default_value;         ///< when the help prints none
    bool unsafe = false;
    std::string note;                  ///< why the fallback values / default are what they are
};

/// Every selected option, nvcc's first, then ptxas's.
const std::vector<NvccKnobSpec>& nvcc_knob_table();

/// The selected option behind knob name, or nullptr.
const NvccKnobSpec* find_nvcc_knob_spec(std::string_view knob);

}  // namespace routetune
