// The nvcc adapter's option selection (see nvcc_adapter.hpp for what is left out and why).
// Fallback values were checked against CUDA 13.0: ptxas accepts -dlcm=ca|cg|cs|lu|cv and
// -dscm=wb|cg|cs|wt and rejects others; -maxrregcount has no printed range, 255 is the
// per-thread register limit of every supported architecture (so "unset" behaves as 255).
#include "adapters/nvcc_knob_table.hpp"

namespace routetune {

namespace {

NvccKnobSpec flag(std::string knob, bool ptxas, std::string long_name, std::string short_name, bool unsafe) {
    NvccKnobSpec spec;
    spec.knob = std::move(knob);
    spec.ptxas = ptxas;
    spec.long_name = std::move(long_name);
    spec.short_name = std::move(short_name);
    spec.form = NvccForm::Flag;
    spec.type = KnobType::Bool;
    spec.default_value = "off";
    spec.unsafe = unsafe;
    return spec;
}

NvccKnobSpec true_false(std::string knob, bool ptxas, std::string long_name, std::string short_name,
                        std::string default_value, bool unsafe, std::string note = "") {
    NvccKnobSpec spec = flag(std::move(knob), ptxas, std::move(long_name), std::move(short_name), unsafe);
    spec.form = NvccForm::TrueFalse;
    spec.default_value = std::move(default_value);
    spec.note = std::move(note);
    return spec;
}

NvccKnobSpec enumerated(std::string knob, bool ptxas, std::string long_name, std::string short_name,
                        std::vector<std::string> values, std::string default_value, std::string note = "") {
    NvccKnobSpec spec = flag(std::move(knob), ptxas, std::move(long_name), std::move(short_name), false);
    spec.form = NvccForm::Value;
    spec.type = KnobType::Enum;
    spec.values = std::move(values);
    spec.default_value = std::move(default_value);
    spec.note = std::move(note);
    return spec;
}

NvccKnobSpec integer(std::string knob, bool ptxas, std::string long_name, std::string short_name,
                     std::int64_t min, std::int64_t max, std::string default_value, std::string note = "") {
    NvccKnobSpec spec = flag(std::move(knob), ptxas, std::move(long_name), std::move(short_name), false);
    spec.form = NvccForm::Value;
    spec.type = KnobType::Int;
    spec.min = min;
    spec.max = max;
    spec.default_value = std::move(default_value);
    spec.note = std::move(note);
    return spec;
}

std::vector<NvccKnobSpec> make_table() {
    return {
        flag("-use_fast_math", false, "--use_fast_math", "-use_fast_math", true),
        true_false("-ftz", false, "--ftz", "-ftz", "off", true),
        true_false("-prec-div", false, "--prec-div", "-prec-div", "on", true),
        true_false("-prec-sqrt", false, "--prec-sqrt", "-prec-sqrt", "on", true),
        true_false("-fmad", false, "--fmad", "-fmad", "on", true),
        flag("-extra-device-vectorization", false, "--extra-device-vectorization", "-extra-device-vectorization",
             false),
        integer("-maxrregcount", false, "--maxrregcount", "-maxrregcount", 16, 255, "255",
                "range 16..255: the help prints none; unset means no limit, i.e. 255"),
        flag("-restrict", false, "--restrict", "-restrict", true),
        integer("-jtd", false, "--jump-table-density", "-jtd", 0, 101, "101",
                "range 0..101 from the help text"),
        enumerated("-Xptxas:-O", true, "--opt-level", "-O", {"0", "1", "2", "3"}, "3",
                   "ptxas -O levels 0..3 (higher levels are accepted and act as 3)"),
        true_false("-Xptxas:-allow-expensive-optimizations", true, "--allow-expensive-optimizations",
                   "-allow-expensive-optimizations", "on", false, "default: on at -O2 and above"),
        enumerated("-Xptxas:-dlcm", true, "--def-load-cache", "-dlcm", {"ca", "cg", "cs", "lu", "cv"}, "ca",
                   "values: the PTX load cache operators ptxas accepts"),
        enumerated("-Xptxas:-dscm", true, "--def-store-cache", "-dscm", {"wb", "cg", "cs", "wt"}, "wb",
                   "values: the PTX store cache operators ptxas accepts"),
        integer("-Xptxas:-regUsageLevel", true, "--register-usage-level", "-regUsageLevel", 0, 10, "5"),
        flag("-Xptxas:-opt-fp-atomics", true, "--optimize-float-atomics", "-opt-fp-atomics", true),
    };
}

}  // namespace

const std::vector<NvccKnobSpec>& nvcc_knob_table() {
    static const std::vector<NvccKnobSpec> table = make_table();
    return table;
}

const NvccKnobSpec* find_nvcc_knob_spec(std::string_view knob) {
    for (const auto& spec : nvcc_knob_table()) {
        if (spec.knob == knob) return &spec;
    }
    return nullptr;
}

}  // namespace routetune
