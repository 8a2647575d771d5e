// Tags of GCC knobs that need judgement rather than parsing: which knobs are unsafe (they
// change the program's semantics or its ABI, so a faster build may be a different program),
// which knobs are inert at -O0, and the -O knob itself.
//
// Unsafe, and why:
// - floating-point semantics: -ffast-math, -funsafe-math-optimizations, -fassociative-math,
//   -freciprocal-math, -ffinite-math-only, -fsigned-zeros, -ftrapping-math, -frounding-math,
//   -fsignaling-nans, -fcx-limited-range, -fcx-fortran-rules, -fmath-errno, -fexcess-precision,
//   -fsingle-precision-constant, -ffloat-store, -ffp-contract (fused multiply-add changes
//   rounding), -mfpmath (x87 excess precision), -mrecip, -mieee-fp, -mpc32/-mpc64/-mpc80,
//   -mfancy-math-387, -m80387, -mhard-float/-msoft-float;
// - integer overflow semantics: -fwrapv, -fwrapv-pointer, -ftrapv;
// - data layout and calling convention (ABI): -fpack-struct, -fshort-enums, -fshort-wchar,
//   -freg-struct-return, -fpcc-struct-return, -fleading-underscore, -fcommon,
//   -fstrict-volatile-bitfields, -mabi, -mregparm, -mrtd, -msseregparm, -mlong-double-*,
//   -m128bit-long-double, -m96bit-long-double, -malign-double, -mms-bitfields,
//   -mvect8-ret-in-mem, -mfp-ret-in-387, -mred-zone (-mno-red-zone), -m16/-m32/-m64/-mx32,
//   -miamcu, -maddress-mode, -mandroid/-mbionic/-mglibc/-mmusl/-muclibc;
// - memory model and linkage: -fallow-store-data-races (invents stores other threads see),
//   -fsemantic-interposition (turning it off changes which definition an interposed symbol
//   call reaches; a single-executable accuracy check cannot see that).
// Not unsafe: -fstrict-aliasing and -fdelete-null-pointer-checks. They are on at -O2, and only
// programs with undefined behaviour notice them, which the accuracy check catches like any
// other wrong output.
#include <algorithm>
#include <iterator>

#include "adapters/gcc_help_parser.hpp"

namespace routetune {

namespace {

constexpr std::string_view unsafe_knobs[] = {
    "-ffast-math", "-funsafe-math-optimizations", "-fassociative-math", "-freciprocal-math",
    "-ffinite-math-only", "-fsigned-zeros", "-ftrapping-math", "-frounding-math",
    "-fsignaling-nans", "-fcx-limited-range", "-fcx-fortran-rules", "-fmath-errno",
    "-fexcess-precision", "-fsingle-precision-constant", "-ffloat-store", "-ffp-contract",
    "-mfpmath", "-mrecip", "-mieee-fp", "-mpc32", "-mpc64", "-mpc80", "-mfancy-math-387",
    "-m80387", "-mhard-float", "-msoft-float", "-fwrapv", "-fwrapv-pointer", "-ftrapv",
    "-fpack-struct", "-fshort-enums", "-fshort-wchar", "-freg-struct-return",
    "-fpcc-struct-return", "-fleading-underscore", "-fcommon", "-fstrict-volatile-bitfields",
    "-mabi", "-mregparm", "-mrtd", "-msseregparm", "-mlong-double-64", "-mlong-double-80",
    "-mlong-double-128", "-m128bit-long-double", "-m96bit-long-double", "-malign-double",
    "-mms-bitfields", "-mvect8-ret-in-mem", "-mfp-ret-in-387", "-mred-zone", "-m16", "-m32",
    "-m64", "-mx32", "-miamcu", "-maddress-mode", "-mandroid", "-mbionic", "-mglibc", "-mmusl",
    "-muclibc", "-fallow-store-data-races", "-fsemantic-interposition",
};

// Optimizer knobs that act without optimisation too: code generation, instrumentation and
// language-level switches (the unsafe ones are added to these).
constexpr std::string_view active_at_o0[] = {
    "-fomit-frame-pointer", "-fasynchronous-unwind-tables", "-funwind-tables", "-fexceptions",
    "-fnon-call-exceptions", "-fstack-protector", "-fstack-protector-all",
    "-fstack-protector-strong", "-fstack-protector-explicit", "-fstack-clash-protection",
    "-fstack-check", "-ftrivial-auto-var-init", "-fzero-initialized-in-bss", "-fpeephole",
};

}  // namespace

bool is_unsafe_gcc_knob(std::string_view name) {
    return std::find(std::begin(unsafe_knobs), std::end(unsafe_knobs), name) != std::end(unsafe_knobs);
}

std::string gcc_opt_level(const std::vector<std::string>& base_flags) {
    std::string level = "0";
    for (const auto& flag : base_flags) {
        if (!flag.starts_with("-O")) continue;
        std::string value = flag.substr(2);
        level = value.empty() ? "1" : value;
    }
    return level;
}

Knob make_gcc_opt_level_knob(const std::vector<std::string>& base_flags) {
    Knob knob;
    knob.name = "-O";
    knob.type = KnobType::Enum;
    knob.values = {"0", "1", "2", "3", "s", "fast", "g", "z"};
    knob.default_value = gcc_opt_level(base_flags);
    if (std::find(knob.values.begin(), knob.values.end(), knob.default_value) == knob.values.end()) {
        knob.default_value.clear();
    }
    knob.help = "optimisation level (-O0 .. -O3, -Os, -Ofast, -Og, -Oz)";
    knob.tags = {"optimizer", "level"};
    return knob;
}

void tag_inactive_at_o0(std::vector<Knob>& knobs) {
    for (auto& knob : knobs) {
        bool optimizing = knob.has_tag("optimizer") || knob.has_tag("param");
        bool active = std::find(std::begin(active_at_o0), std::end(active_at_o0), knob.name) != std::end(active_at_o0);
        if (!optimizing || active || knob.has_tag("unsafe") || knob.has_tag("level")) continue;
        knob.tags.push_back("inactive-at-O0");
    }
}

}  // namespace routetune
