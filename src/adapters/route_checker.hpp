// Checking a route's final flags against the compiler's own account of them, before the
// build: every knob of the route must end in the value the route gives it. The algorithm is
// shared; what "the compiler's account" is comes from each adapter (GCC: `-Q --help=...`;
// Clang: the cc1 line of `-###`, and feature macros).
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"

namespace routetune {

/// What a compiler says of one flag list.
struct CompilerAccount {
    std::map<std::string, std::string> states;  ///< option -> its state as the compiler states it
    std::string rest;                           ///< the rest of the account (Clang: the cc1 line), compared whole

    /// Equal when the compiler says the same of every option and of the rest.
    bool operator==(const CompilerAccount&) const = default;
};

/// The flags of one knob value (gcc_flag_for, or a -mllvm pair).
using KnobFlags = std::function<std::vector<std::string>(const Knob& knob, const std::string& value)>;

/// One knob of a route as the adapter emitted it.
struct EmittedKnob {
    const Knob* knob = nullptr;      ///< its catalog entry
    std::string value;               ///< the route's value
    std::vector<std::string> items;  ///< its argv items in the final flags
    std::vector<std::string> after;  ///< the items of the route's knobs that the order puts after it on
                                     ///< purpose (more specific ones, when it is an umbrella)
};

/// The compiler side of a check (an I/O boundary: tests fake it).
struct AccountSource {
    std::string compiler;  ///< "GCC", "clang": for messages
    /// The account of flags; nullopt when the compiler rejects them. Thread-safe.
    std::function<std::optional<CompilerAccount>(const std::vector<std::string>& flags)> account;
    /// The value account states for knob, in the route's terms ("on", "3", ...), or nullopt
    /// when it states none: the knob is then asserted once more, last, and must change nothing.
    std::function<std::optional<std::string>(const Knob& knob, const std::string& asked, const CompilerAccount& account)>
        reported;
    /// The flags of a knob value, for asking what another value would give.
    KnobFlags flags_of;
    /// false: conflicts come without their overriding flag, and no account is asked to find
    /// it (for sweeps that check each conflict again on its own).
    bool name_overriders = true;
};

/// The knobs of route in umbrella_first order with their flags (flags_of) and, for an
/// umbrella, the flags of the route's more specific knobs; declared knobs and knobs missing
/// from catalog are left out and named in *unchecked.
std::vector<EmittedKnob> emitted_knobs(const Route& route, const Catalog& catalog, const KnobFlags& flags_of,
                                       std::vector<std::string>& unchecked);

/// The check of flags (a route's final flags) for knobs: a knob whose value the account
/// states must state the route's value (integers compare as numbers); any other knob, its
/// items asserted once more at the end, must leave the account as it was (for an umbrella:
/// flags + items + after must give the account of flags + after); a knob that flags end with
/// (followed only by `after`) holds without asking, as no later flag can override it, and the
/// other unstated knobs but umbrellas are first asserted together in reverse order (all hold
/// when that leaves the account as it was; else halves are tried). For each conflict the overriding flag is searched by leaving flags out (bisection
/// over the other flags and `--param`/`-mllvm`/`-Xclang` pairs), only on conflict. Not
/// checked when the compiler rejects flags (the build then fails and says why).
RouteCheck check_route_flags(const std::vector<std::string>& flags, const std::vector<EmittedKnob>& knobs,
                             const AccountSource& source);

/// Checks per route and flag list, shared by the threads of a study: each is checked once.
class RouteCheckCache {
public:
    /// The cached check of route with flags, else check() (run outside the lock), stored.
    RouteCheck get(const Route& route, const std::vector<std::string>& flags, const std::function<RouteCheck()>& check);

private:
    std::mutex mutex_;
    std::map<std::pair<std::string, std::vector<std::string>>, RouteCheck> checks_;
};

/// The check of route as applied (applied.flags), for the GCC and Clang adapters: its knobs
/// through emitted_knobs, checked by check_route_flags against source, through cache.
RouteCheck check_applied_route(const Route& route, const Catalog& catalog, const AppliedRoute& applied,
                               const AccountSource& source, RouteCheckCache& cache);

}  // namespace routetune
