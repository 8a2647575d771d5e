// libFuzzer target: the number and duration parsers every command-line option goes through
// (spec/value_ranges.hpp). The first byte picks a range, the rest is the option's text. An
// accepted integer must lie in its range and be what its decimal text says; an accepted
// duration must be finite, in range, and written in the duration grammar (checked here by an
// independent scan); a refusal is a UsageError with a bounded, clean message.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <string>
#include <string_view>

#include "fuzz_checks.hpp"
#include "routetune/error.hpp"
#include "spec/value_ranges.hpp"

namespace {

namespace ranges = routetune::ranges;

constexpr routetune::IntegerRange kIntegers[] = {ranges::max_routes, ranges::seed, ranges::mixed_max_knobs,
                                                 ranges::jobs, ranges::queue_jobs, ranges::simulate_seeds};
constexpr routetune::NumberRange kDurations[] = {ranges::time_limit_s, ranges::lease_s, ranges::older_than_s};

// Groups of digits with at most one '.' and one digit at least, each followed by s, m or h; a
// bare number only as the whole text.
bool duration_grammar(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size()) {
        int digits = 0, dots = 0;
        std::size_t start = i;
        for (; i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.'); ++i)
            (text[i] == '.' ? dots : digits)++;
        if (digits == 0 || dots > 1) return false;
        if (i == text.size()) return start == 0;
        char unit = text[i++];
        if (unit != 's' && unit != 'm' && unit != 'h') return false;
    }
    return !text.empty();
}

void check_integer(std::string_view text, const routetune::IntegerRange& range) {
    try {
        std::int64_t value = routetune::parse_integer_option(text, range, "--fuzz");
        std::string canonical = std::to_string(value);
        std::string_view digits = text;
        while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
        if (!routetune::in_range(value, range) || canonical != digits) std::abort();
    } catch (const routetune::UsageError& error) {
        routetune::fuzz::check_message(error.what());
    }
}

void check_duration(std::string_view text, const routetune::NumberRange& range) {
    try {
        double seconds = routetune::parse_duration(text, "--fuzz", range);
        if (!std::isfinite(seconds) || !routetune::in_range(seconds, range) || !duration_grammar(text)) std::abort();
    } catch (const routetune::UsageError& error) {
        routetune::fuzz::check_message(error.what());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    constexpr std::size_t integers = std::size(kIntegers);
    std::size_t pick = data[0] % (integers + std::size(kDurations));
    if (pick < integers) check_integer(text, kIntegers[pick]);
    else check_duration(text, kDurations[pick - integers]);
    return 0;
}
