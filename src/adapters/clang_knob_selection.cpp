// Which of Clang's many options are knobs, and which are unsafe: judgement, not parsing.
//
// Clang 14's driver knows about 900 `-f` options, most of them language dialects,
// diagnostics, modules, sanitizers, profiling or other languages (Objective-C, OpenMP, CUDA,
// Fortran). A `-f` switch is a knob when its name belongs to an optimisation or code
// generation family below and to no excluded family; probing then drops those clang ignores.
// LLVM has about 1900 options reached through -mllvm, most of them for debugging, verifying,
// printing or other targets: an option is a knob when its name belongs to the family of an
// optimisation pass (inlining, unrolling, vectorizers, loop passes, GVN, LICM, LSR,
// instcombine, SimplifyCFG, unswitching, tail duplication, block placement, scheduling,
// register allocation weights, prefetching, sinking and hoisting) or is the host target's own
// (`x86-...`), and to no excluded family (debugging, verification, printing, profiles,
// sanitizers, OpenMP, machine-learning advisers, Polly, instrumentation).
//
// Unsafe, beyond GCC's list (gcc_knob_tags.cpp): -fapprox-func, -fhonor-infinities,
// -fhonor-nans, -fprotect-parens, -fstrict-float-cast-overflow (floating-point semantics);
// every LLVM option named "unsafe" (enable-unsafe-globalsmodref-alias-results, ...);
// LLVM's enable-unsafe-fp-math, enable-no-nans-fp-math, enable-no-infs-fp-math,
// enable-no-signed-zeros-fp-math, enable-no-trapping-fp-math (the fast-math family below
// the driver).
#include <algorithm>
#include <iterator>

#include "adapters/clang_catalog_parser.hpp"
#include "adapters/clang_llvm_flags.hpp"
#include "adapters/gcc_help_parser.hpp"

namespace routetune {

namespace {

constexpr std::string_view clang_unsafe[] = {
    "-fapprox-func", "-fhonor-infinities", "-fhonor-nans", "-fprotect-parens", "-fstrict-float-cast-overflow",
    "-mllvm:enable-unsafe-fp-math", "-mllvm:enable-no-nans-fp-math", "-mllvm:enable-no-infs-fp-math",
    "-mllvm:enable-no-signed-zeros-fp-math", "-mllvm:enable-no-trapping-fp-math",
};

constexpr std::string_view switch_families[] = {
    "inline", "unroll", "vectoriz", "slp-", "loop", "frame-pointer", "strict-", "jump-tables",
    "merge-all-constants", "-sections", "plt", "sibling-calls", "math", "signed-zeros", "honor-",
    "approx-func", "wrapv", "trapv", "pack-struct", "short-enums", "common", "zero-initialized-in-bss",
    "delete-null-pointer-checks", "split-machine-functions", "builtin", "semantic-interposition",
    "global-isel", "tbaa", "bitfield-accesses", "protect-parens", "stack-protector", "unwind-tables",
    "align-functions", "gcse", "peel", "schedule", "tree-", "ipa-", "optimize", "reroll",
};

constexpr std::string_view switch_exclusions[] = {
    "gnu", "visibility", "cuda", "hip", "gpu", "openmp", "objc", "ms-", "sanitize", "xray", "profile",
    "debug", "module", "pch", "diagnostic", "fortran", "opencl", "sycl", "-commons", "dump",
};

constexpr std::string_view llvm_families[] = {
    "unroll", "inline", "vectoriz", "force-vector", "slp-", "loop-", "licm", "lsr-", "gvn", "instcombine", "jump-thread",
    "simplifycfg", "unswitch", "tail-dup", "block-placement", "align-", "interleave", "misched", "sched",
    "regalloc", "prefetch", "spec-exec", "dse-", "memcpy", "hoist", "sink", "peel", "enable-",
};

constexpr std::string_view llvm_exclusions[] = {
    "verify", "view", "print", "dump", "stats", "time", "stress", "debug", "trace", "write", "read",
    "remark", "asm", "dot", "bisect", "emit", "profile", "pgo", "sample", "openmp", "ml-", "replay",
    "xray", "sanitiz", "fs-", "slh", "lvi", "seses", "speculative-load", "cfi", "abort", "crash", "test",
    "polly", "hwasan", "instrument", "order-file",
};

constexpr std::string_view foreign_targets[] = {
    "aarch64", "amdgpu", "amdgcn", "amdhsa", "arm", "hexagon", "mips", "nvptx", "ppc", "riscv", "systemz",
    "wasm", "ve-", "mve", "lanai", "bpf", "avr", "msp430", "sparc", "xcore", "r600", "sve", "thumb", "gcn",
    "si-", "hvx", "m68k", "csky", "aix", "xcoff", "x86", "falkor", "neon",
};

template <std::size_t N>
bool mentions(std::string_view name, const std::string_view (&words)[N]) {
    return std::any_of(std::begin(words), std::end(words),
                       [&](std::string_view word) { return name.find(word) != std::string_view::npos; });
}

}  // namespace

bool is_unsafe_clang_knob(std::string_view name) {
    bool llvm_unsafe = name.starts_with(kMllvmKnobPrefix) && name.find("unsafe") != std::string_view::npos;
    return is_unsafe_gcc_knob(name) || llvm_unsafe ||
           std::find(std::begin(clang_unsafe), std::end(clang_unsafe), name) != std::end(clang_unsafe);
}

bool is_clang_optimisation_switch(std::string_view name) {
    return mentions(name, switch_families) && !mentions(name, switch_exclusions);
}

bool is_llvm_optimisation_option(std::string_view name, const std::string& target_prefix) {
    if (mentions(name, llvm_exclusions) || name.starts_with("disable-") || name.starts_with("no-")) return false;
    if (!target_prefix.empty() && name.starts_with(target_prefix)) return true;
    for (auto target : foreign_targets) {
        if (name.starts_with(target) || name.find("-" + std::string(target)) != std::string_view::npos) return false;
    }
    return mentions(name, llvm_families);
}

}  // namespace routetune
