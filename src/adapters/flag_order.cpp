// One table of umbrella knobs and their rank, for every adapter that emits flags one knob
// at a time (gcc, clang, nvcc). Within a rank the knob-name order keeps the command line canonical.
#include "adapters/flag_order.hpp"

#include <algorithm>
#include <array>

namespace routetune {

namespace {

struct Umbrella {
    std::string_view knob;
    int rank;
    std::string_view sets;  // what it sets as a side effect (documentation of the row)
};

constexpr std::array<Umbrella, 9> kUmbrellas{{
    {"-O", 0, "the optimizer flags of its level; clang's -Ofast also fast math, in argv order"},
    {"-march", 1, "the ISA extensions (-m switches) of the CPU, and the tuning"},
    {"-mtune", 2, "the tuning of -march"},
    {"-mcpu", 2, "the tuning of -march"},
    {"-ffp-model", 3, "clang: fast math, fp-contract, exception behaviour"},
    {"-ffast-math", 4, "unsafe math and its parts, finite math, math-errno, rounding and signaling math"},
    {"-use_fast_math", 4, "nvcc: --ftz=true --prec-div=false --prec-sqrt=false --fmad=true"},
    {"-funsafe-math-optimizations", 5, "associative and reciprocal math, signed zeros, trapping math"},
    {"-ffinite-math-only", 5, "clang: honor-nans and honor-infinities"},
}};

}  // namespace

int umbrella_rank(std::string_view knob_name) {
    for (const auto& umbrella : kUmbrellas) {
        if (umbrella.knob == knob_name) return umbrella.rank;
    }
    return umbrella_rank_last;
}

std::vector<std::pair<std::string, std::string>> umbrella_first(const Route& route) {
    std::vector<std::pair<std::string, std::string>> ordered(route.assignments().begin(), route.assignments().end());
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
        return umbrella_rank(a.first) < umbrella_rank(b.first);
    });
    return ordered;
}

}  // namespace routetune
