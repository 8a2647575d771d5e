// `routetune flags LOCK [--format F] [--fallback [--spec SPEC]]`: the route a build uses, flags
// and environment, in the build's own syntax (govern/build_route_format.hpp), each use logged.
// The lock's standing (govern/lock_standing.hpp, assess_lock) decides: usable prints the lock's
// route; retired prints the default route it keeps; a lock that cannot be used (unreadable or
// missing, stale, tampered) prints no route and exits 2, 3 or 4, or with --fallback gives the
// spec's default route (--spec, else the spec the lock names; for a tampered lock only a spec in
// the lock's own folder), warns, and logs the refusal before printing anything. A tampered
// lock's flags are never printed and its log entries go to LOCK.audit.jsonl (or --audit), never
// to a log the forged lock names. `routetune flags SPEC --route R`: what any route maps to.
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/lock_options.hpp"
#include "govern/audit_log.hpp"
#include "govern/build_route_format.hpp"
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
    std::string spec;
    std::string format = "shell";
    LockOptions options;
};

int route_flags(const FlagsArguments& a) {
    GovernedSetup setup = governed_setup(a.target);
    Route route = Route::parse(a.route);
    validate_route(route, setup.catalog);
    AppliedRoute applied = setup.adapter->apply(route, setup.catalog);
    BuildRoute build{route.to_string(), applied.flags, applied.environment, "route", "", setup.spec.file.string(), ""};
    std::cout << format_build_route(build, a.format);
    return 0;
}

// "-O3 TILE=16": what an audit entry says was given.
std::string given_text(const std::vector<std::string>& flags, const std::map<std::string, std::string>& environment) {
    std::string text = shell_words(flags);
    for (const auto& [name, value] : environment) text += " " + name + "=" + value;
    return text;
}

// Logs what the build was given (before it is printed), then prints it.
int give(const FlagsArguments& a, const LockStanding& standing, const std::string& action, const BuildRoute& build,
         const std::string& what, nlohmann::json extra_evidence = nlohmann::json::object()) {
    std::string text = format_build_route(build, a.format);
    AuditEntry entry = lock_entry(action, a.target, standing);
    for (auto& [key, value] : extra_evidence.items()) entry.evidence[key] = value;
    if (standing.lock && standing.state != LockState::Tampered) entry.proposed = standing.lock->route;
    entry.result = what + " given: " + given_text(build.flags, build.environment);
    record(standing, entry);
    std::cout << text;
    return 0;
}

// The spec whose default route a fallback gives: --spec, else the one the lock names (for a
// tampered lock only one in the lock's own folder: fallback_spec).
std::filesystem::path spec_for_fallback(const FlagsArguments& a, const LockStanding& standing) {
    if (!a.spec.empty()) return a.spec;
    if (!standing.lock)
        throw UsageError("flags " + a.target + " --fallback: the lock names no spec here (" + to_string(standing.state) +
                         "); give --spec SPEC, the spec whose default route to use");
    return fallback_spec(standing, a.target);
}

int fall_back(const FlagsArguments& a, const LockStanding& standing, const std::string& why) {
    std::filesystem::path spec;
    try {
        spec = spec_for_fallback(a, standing);
    } catch (const UsageError& e) {
        if (standing.state != LockState::Tampered) throw;
        std::cerr << "routetune: no route printed: " << e.what() << "\n";
        AuditEntry entry = lock_entry("tampered", a.target, standing);
        entry.result = std::string("no route given: ") + e.what();
        record(standing, entry);
        return kExitTampered;
    }
    AppliedRoute fallback = spec_default_route(spec);
    BuildRoute build{"", fallback.flags, fallback.environment, "fallback", a.target, std::filesystem::absolute(spec).string(),
                     to_string(standing.state)};
    std::string action = standing.state == LockState::Tampered ? "tampered" : "fallback";
    std::cerr << "routetune: warning: falling back to the default route of " << spec.string()
              << (standing.lock && standing.state != LockState::Tampered ? " (route " + standing.lock->route + " is not used)" : "")
              << "; logged\n";
    return give(a, standing, action, build, "the spec's default route",
                {{"refusal", to_string(standing.state)}, {"why", why}, {"spec", spec.string()}});
}

int lock_flags(const FlagsArguments& a) {
    LockStanding standing = judge_lock(a.target, a.options);
    print_notes(standing);
    std::string why;
    switch (standing.state) {
        case LockState::Usable: {
            const Lock& lock = *standing.lock;
            BuildRoute build{lock.route, lock.flags, lock.environment, "lock", a.target,
                             path_from_lock(lock.spec, a.target).string(), ""};
            return give(a, standing, "flags", build, "the route");
        }
        case LockState::Retired: {
            const Lock& lock = *standing.lock;
            std::cerr << "routetune: " << a.target << " is retired (" << lock.retired.reason << "); the default route\n";
            BuildRoute build{"", lock.default_flags, lock.default_environment, "lock", a.target,
                             path_from_lock(lock.spec, a.target).string(), "retired"};
            return give(a, standing, "flags", build, "retired lock; the default route");
        }
        case LockState::Unreadable:
        case LockState::Missing:
            why = standing.problem;
            std::cerr << "routetune: " << why << "\n";
            break;
        case LockState::Stale:
            why = a.target + " is stale here (" + std::to_string(standing.differences.size()) + " differences)";
            std::cerr << "routetune: " << why << ":\n";
            for (const auto& d : standing.differences) std::cerr << "  " << describe(d) << "\n";
            break;
        case LockState::Tampered:
            why = a.target + " is tampered";
            if (!a.fallback) return answer_tampered(standing, a.target, "no route given");
            std::cerr << "routetune: " << why << ":\n" << tampering_text(standing);
            break;
    }
    if (a.fallback) return fall_back(a, standing, why);
    std::cerr << "routetune: no route printed; --fallback gives the spec's default route (logged)\n";
    return standing.state == LockState::Stale ? 3 : 2;
}

}  // namespace

void add_flags_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<FlagsArguments>();
    CLI::App* c = app.add_subcommand("flags", "Print the route a lock applies, flags and environment (or, with --route, what a route of a spec maps to)");
    c->footer("Exit codes: 0 the route was printed and logged (a retired lock's default route; with --fallback, the spec's "
              "default route for a lock that cannot be used); 2 bad spec, route or options, or a missing or unreadable "
              "lock; 3 the lock is stale (without --fallback); 4 the lock is tampered (without --fallback; its route is "
              "never printed).");
    c->add_option("target", a->target, "a lock file, or a spec with --route")->required();
    auto* route = c->add_option("--route", a->route, "with a spec: the route to map");
    auto* fallback = c->add_flag("--fallback", a->fallback,
                                 "a missing, unreadable, stale or tampered lock gives the spec's default route (exit 0, logged)");
    auto* spec = c->add_option("--spec", a->spec, "with --fallback: the spec whose default route to give (default: the lock's)");
    c->add_option("--format", a->format, "shell (default), make, cmake, env or json")
        ->check(CLI::IsMember(build_route_format_names()));
    add_lock_options(*c, a->options, false);
    route->excludes(fallback);
    route->excludes(spec);
    spec->needs(fallback);
    c->callback([a, route, &action] {
        bool for_route = route->count() > 0;
        action = [a, for_route] { return for_route ? route_flags(*a) : lock_flags(*a); };
    });
}

}  // namespace routetune::cli
