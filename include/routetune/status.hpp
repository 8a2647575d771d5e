// The outcome of one evaluation. A failed candidate is data, never an exception.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace routetune {

/// What became of one candidate.
enum class Status {
    Pending,       ///< not finished (interrupted or in flight)
    Ok,            ///< built, ran every case, passed accuracy, timed
    Inaccurate,    ///< some case's loss is over the threshold (or NaN/Inf)
    RouteConflict, ///< the compiler would override a knob of the route: refused before building
    BuildFailed,   ///< the build exited non-zero
    BuildCrashed,  ///< the build died of a signal
    BuildTimeout,  ///< the build ran past its timeout
    RunFailed,     ///< a run exited non-zero
    RunCrashed,    ///< a run died of a signal
    RunTimeout,    ///< a run ran past its (fixed or relative) timeout
    Abandoned,     ///< scale-out: three attempts each lost their worker; skipped, never claimed again
};

/// "ok", "inaccurate", "build_failed", ... as in the design.
std::string_view to_string(Status status);
/// The inverse of to_string; nullopt for unknown text.
std::optional<Status> status_from_string(std::string_view text);
/// Every status name, comma separated, for messages that list the valid ones.
std::string status_names_text();

}  // namespace routetune
