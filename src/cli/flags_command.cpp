// `routetune flags LOCK [--fallback]`: the flags a build uses, one line of shell words, each use
// logged. The lock's standing (govern/lock_standing.hpp, assess_lock) decides: usable prints the
// route's flags; retired prints the default route's; stale exits 3, or with --fallback prints
// the default route's flags, warns and logs a `fallback` entry whose evidence is the
// differences; tampered exits 4 and never prints the lock's flags, or with --fallback prints the
// default route of the spec (not the lock's copy of it) and logs `tampered`.
// `routetune flags SPEC --route R`: what any route maps to.
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/lock_options.hpp"
#include "govern/audit_log.hpp"
#include "govern/governed_setup.hpp"
#include "govern/verification.hpp"
#include "routetune/error.hpp"
#include "util/shell_quote.hpp"

namespace routetune::cli {

namespace {

struct FlagsArguments {
    std::string target;
    std::string route;
    bool fallback = false;
    LockOptions options;
};

int route_flags(const FlagsArguments& a) {
    GovernedSetup setup = governed_setup(a.target);
    Route route = Route::parse(a.route);
    validate_route(route, setup.catalog);
    AppliedRoute applied = setup.adapter->apply(route, setup.catalog);
    std::cout << shell_words(applied.flags) << "\n";
    for (const auto& [name, value] : applied.environment) std::cerr << "routetune: environment: " << name << "=" << value << "\n";
    return 0;
}

// Prints flags and logs what the build was given.
int give(const LockStanding& standing, const FlagsArguments& a, const std::string& action,
         const std::vector<std::string>& flags, const std::string& what) {
    std::cout << shell_words(flags) << "\n";
    AuditEntry entry = lock_entry(action, a.target, standing);
    if (standing.lock && standing.state != LockState::Tampered) entry.proposed = standing.lock->route;
    entry.result = what + " printed: " + shell_words(flags);
    record(standing, entry);
    return 0;
}

int tampered_flags(const LockStanding& standing, const FlagsArguments& a) {
    std::optional<AppliedRoute> fallback;
    std::string why = "no flags printed; --fallback prints the spec's default route's flags";
    if (a.fallback) {
        try {
            fallback = spec_default_route(fallback_spec(standing, a.target));
        } catch (const UsageError& e) {
            why = std::string("no flags printed: ") + e.what();
        }
    }
    if (!fallback) {
        int code = answer_tampered(standing, a.target, why);
        std::cerr << "routetune: " << why << "\n";
        return code;
    }
    std::cerr << "routetune: " << a.target << " is tampered:\n" << tampering_text(standing)
              << "routetune: warning: falling back to the spec's default route's flags; logged\n";
    return give(standing, a, "tampered", fallback->flags, "tampered lock; the spec's default route's flags");
}

int lock_flags(const FlagsArguments& a) {
    LockStanding standing = judge_lock(a.target, a.options);
    if (standing.state == LockState::Unreadable) throw UsageError(standing.problem);
    print_notes(standing);
    if (standing.state == LockState::Tampered) return tampered_flags(standing, a);
    const Lock& lock = *standing.lock;
    if (standing.state == LockState::Usable) return give(standing, a, "flags", lock.flags, "the route's flags");
    if (standing.state == LockState::Retired) {
        std::cerr << "routetune: " << a.target << " is retired (" << lock.retired.reason
                  << "); the default route's flags\n";
        return give(standing, a, "flags", lock.default_flags, "retired lock; the default route's flags");
    }
    std::cerr << "routetune: " << a.target << " is stale here (" << standing.differences.size() << " differences):\n";
    for (const auto& d : standing.differences) std::cerr << "  " << describe(d) << "\n";
    if (!a.fallback) {
        std::cerr << "routetune: no flags printed; --fallback prints the default route's flags\n";
        return 3;
    }
    std::cerr << "routetune: warning: falling back to the default route's flags (route " << lock.route
              << " is not proven here); logged\n";
    return give(standing, a, "fallback", lock.default_flags, "the default route's flags");
}

}  // namespace

void add_flags_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<FlagsArguments>();
    CLI::App* c = app.add_subcommand("flags", "Print the flags a lock applies (or, with --route, what a route of a spec maps to)");
    c->add_option("target", a->target, "a lock file, or a spec with --route")->required();
    auto* route = c->add_option("--route", a->route, "with a spec: the route to map");
    auto* fallback = c->add_flag("--fallback", a->fallback,
                                 "a stale or tampered lock prints the default route's flags (exit 0, logged)");
    add_lock_options(*c, a->options, false);
    route->excludes(fallback);
    c->footer("Exit codes: 0 flags printed (logged); 2 bad input; 3 stale (without --fallback); 4 tampered (without --fallback).");
    c->callback([a, route, &action] {
        bool for_route = route->count() > 0;
        action = [a, for_route] { return for_route ? route_flags(*a) : lock_flags(*a); };
    });
}

}  // namespace routetune::cli
