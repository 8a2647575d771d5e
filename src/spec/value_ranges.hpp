// The valid range of every number a spec key or a command-line option takes, in one table, so
// `[search] max_routes` and `--max-routes` accept exactly the same values and say so the same
// way. A range also bounds what the code downstream can hold: no timeout overflows the clock,
// no repeat count a vector, no shift of a size in megabytes 64 bits, no lease a clock.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace routetune {

/// An integer range, both ends included.
struct IntegerRange {
    std::int64_t min;
    std::int64_t max;
};

/// A number range: above min (or at least min when min_included), at most max.
struct NumberRange {
    double min;
    bool min_included;
    double max;
};

/// The ranges by key; the CLI twin of each is named beside it.
namespace ranges {
inline constexpr NumberRange timeout_s{0, false, 1e7};              ///< [build]/[run] timeout_s (115 days)
inline constexpr NumberRange relative_timeout{0, true, 1e6};        ///< [build]/[run] relative_timeout
inline constexpr NumberRange relative_timeout_floor_s{0, true, 1e7}; ///< [build]/[run] relative_timeout_floor_s
inline constexpr IntegerRange memory_limit_mb{0, std::int64_t{1} << 30};  ///< [build]/[run] memory_limit_mb
inline constexpr IntegerRange max_output_mb{1, std::int64_t{1} << 20};    ///< [build]/[run] max_output_mb
inline constexpr IntegerRange build_nice{0, 19};                  ///< [build] nice (a niceness increment)
inline constexpr IntegerRange warmup{0, 10000};                     ///< [timing] warmup
inline constexpr IntegerRange repeats{1, 100000};                   ///< [timing] repeats
inline constexpr IntegerRange confirm_rounds{1, 100000};            ///< [timing] confirm_rounds
inline constexpr IntegerRange confirm_top{1, 1000};                 ///< [timing] confirm_top
inline constexpr IntegerRange expect_exit{1, 255};                  ///< [[case]] expect_exit (a failing exit code)
inline constexpr IntegerRange confirm_builds{1, 100};               ///< [timing] confirm_builds
inline constexpr NumberRange min_gain{0, true, 100};                ///< [timing] min_gain
inline constexpr IntegerRange max_routes{1, 1000000000000};         ///< [search] max_routes, --max-routes
inline constexpr NumberRange time_limit_s{0, true, 1e8};            ///< [search] time_limit_s, --time-limit
inline constexpr IntegerRange mixed_max_knobs{1, 1000};             ///< [search] mixed_max_knobs, --mixed-max-knobs
inline constexpr IntegerRange seed{0, INT64_MAX};                   ///< [search] seed, --seed
inline constexpr IntegerRange jobs{1, 1024};                        ///< --jobs
inline constexpr IntegerRange queue_jobs{0, 1024};                  ///< --jobs with --store URL (0: only workers)
inline constexpr IntegerRange queue_depth{1, 100000};               ///< --queue-depth
inline constexpr IntegerRange measure_lanes{1, 64};                 ///< --measure-lanes
inline constexpr IntegerRange expand_limit{1, 1000000000000};       ///< expand --limit
inline constexpr IntegerRange simulate_budget{1, 1000000};          ///< simulate --budget
inline constexpr IntegerRange simulate_seeds{1, 10000};             ///< simulate --seeds
inline constexpr NumberRange lease_s{1, true, 86400};               ///< --lease (renewed every third of it)
inline constexpr NumberRange older_than_s{0, false, 315360000};     ///< gc --older-than (3650 days)
}  // namespace ranges

/// "an integer from 1 to 100000".
std::string describe(const IntegerRange& range);
/// "a number above 0 and at most 10000000".
std::string describe(const NumberRange& range);

/// True when value lies in range.
bool in_range(std::int64_t value, const IntegerRange& range);
/// True when value is finite and lies in range.
bool in_range(double value, const NumberRange& range);

/// The decimal integer text of option, checked against range; UsageError naming the option,
/// the (shortened) text and the valid range otherwise ("", "-1", "1e3", "2^64" all fail).
std::int64_t parse_integer_option(std::string_view text, const IntegerRange& range, std::string_view option);

/// Seconds from a duration text ("90", "90s", "5m", "1h30m", "2.5h": numbers of digits with at
/// most one '.', each followed by s, m or h; a bare number only alone), checked against range;
/// UsageError naming the option, the (shortened) text and the valid forms or range otherwise.
double parse_duration(std::string_view text, std::string_view option, const NumberRange& range);

}  // namespace routetune
