// The budget of a search: at most so many evaluations, at most so much time.
#pragma once

#include <cstddef>
#include <optional>

namespace routetune {

/// Limits of one study; an absent limit does not bind.
struct Budget {
    std::optional<std::size_t> max_routes;  ///< --max-routes: evaluations in all
    std::optional<double> time_limit_s;     ///< --time-limit: seconds since the study began

    /// True when no further evaluation may start.
    bool exhausted(std::size_t evaluated_count, double elapsed_s) const;
    /// True when time_limit_s is set and elapsed_s has reached it.
    bool out_of_time(double elapsed_s) const { return time_limit_s && elapsed_s >= *time_limit_s; }
    /// How many evaluations may still start (ignoring time): max_routes - evaluated_count,
    /// 0 when spent, nullopt when max_routes is absent.
    std::optional<std::size_t> remaining(std::size_t evaluated_count) const;
    /// The proposal size for the next call: min(want, remaining), 0 when exhausted.
    std::size_t next_batch(std::size_t want, std::size_t evaluated_count, double elapsed_s) const;
};

}  // namespace routetune
