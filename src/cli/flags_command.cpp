// `routetune flags LOCK [--format F] [--fallback [--spec SPEC]]`: the route a build uses, flags
// and environment, in the build's own syntax (govern/build_route_format.hpp). Whether the lock
// can be used is decided in one place (govern/lock_use.hpp); a lock that cannot (missing,
// unreadable, stale) prints no route and exits with the refusal's code, or with --fallback
// gives the spec's default route (the lock's spec, or --spec), warns, and logs a `fallback`
// entry with the refusal and its evidence before printing anything. `routetune flags SPEC
// --route R`: what any route maps to.
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "govern/audit_log.hpp"
#include "govern/build_route_format.hpp"
#include "govern/governed_setup.hpp"
#include "govern/lock_use.hpp"
#include "routetune/error.hpp"
#include "util/shell_quote.hpp"

namespace routetune::cli {

namespace {

struct FlagsArguments {
    std::string target;
    std::string route;
    bool fallback = false;
    std::string spec;
    std::string audit;
    std::string format = "shell";
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

// The spec whose default route a fallback gives: --spec, else the one the lock names.
std::filesystem::path fallback_spec(const FlagsArguments& a, const LockUse& use) {
    if (!a.spec.empty()) return a.spec;
    if (use.lock) return path_from_lock(use.lock->spec, a.target);
    throw UsageError("flags " + a.target + " --fallback: the lock names no spec here (" +
                     std::string(to_string(use.refusal)) + "); give --spec SPEC, the spec whose default route to use");
}

int fall_back(const FlagsArguments& a, const LockUse& use) {
    GovernedSetup setup = governed_setup(fallback_spec(a, use));
    AppliedRoute fallback = setup.adapter->apply(Route{}, setup.catalog);
    BuildRoute build{"", fallback.flags, fallback.environment, "fallback", a.target, setup.spec.file.string(),
                     std::string(to_string(use.refusal))};
    std::string text = format_build_route(build, a.format);
    AuditEntry entry = make_audit_entry("fallback", a.target, command_argv());
    entry.evidence = difference_evidence(a.target, use.differences);
    entry.evidence["refusal"] = to_string(use.refusal);
    entry.evidence["why"] = use.why;
    entry.evidence["spec"] = setup.spec.file.string();
    entry.evidence["spec_sha256"] = setup.spec.sha256;
    entry.proposed = use.lock ? use.lock->route : "";
    entry.result = "default route given: " + shell_words(fallback.flags);
    for (const auto& [name, value] : fallback.environment) entry.result += " " + name + "=" + value;
    append_audit_entry(AuditTarget{a.audit, command_argv()}, a.target, entry);
    std::cerr << "routetune: warning: falling back to the default route of " << setup.spec.file.string()
              << (use.lock ? " (route " + use.lock->route + " is not used)" : "") << "; logged\n";
    std::cout << text;
    return 0;
}

int lock_flags(const FlagsArguments& a) {
    LockUse use = judge_lock_use(a.target, *make_system_probe());
    if (use.refusal == LockRefusal::None) {
        const Lock& lock = *use.lock;
        BuildRoute build{lock.route, lock.flags, lock.environment, "lock", a.target,
                         path_from_lock(lock.spec, a.target).string(), ""};
        std::cout << format_build_route(build, a.format);
        return 0;
    }
    std::cerr << "routetune: " << use.why << "\n";
    for (const auto& d : use.differences) std::cerr << "  " << describe(d) << "\n";
    if (a.fallback) return fall_back(a, use);
    std::cerr << "routetune: no route printed; --fallback gives the spec's default route (logged)\n";
    return refusal_exit_code(use.refusal);
}

}  // namespace

void add_flags_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<FlagsArguments>();
    CLI::App* c = app.add_subcommand("flags", "Print the route a lock applies, flags and environment (or, with --route, what a route of a spec maps to)");
    c->footer("Exit codes: 0 the route was printed (with --fallback, the spec's default route for a missing, unreadable or stale lock, logged); 2 bad lock, spec, route or options, or a missing or unreadable lock; 3 the lock is stale (without --fallback).");
    c->add_option("target", a->target, "a lock file, or a spec with --route")->required();
    auto* route = c->add_option("--route", a->route, "with a spec: the route to map");
    auto* fallback = c->add_flag("--fallback", a->fallback,
                                 "a missing, unreadable or stale lock gives the spec's default route (exit 0, logged)");
    auto* spec = c->add_option("--spec", a->spec, "with --fallback: the spec whose default route to give (default: the lock's)");
    c->add_option("--format", a->format, "shell (default), make, cmake, env or json")
        ->check(CLI::IsMember(build_route_format_names()));
    c->add_option("--audit", a->audit, "audit log (default: LOCK.audit.jsonl)");
    route->excludes(fallback);
    route->excludes(spec);
    spec->needs(fallback);
    c->callback([a, route, &action] {
        bool for_route = route->count() > 0;
        action = [a, for_route] { return for_route ? route_flags(*a) : lock_flags(*a); };
    });
}

}  // namespace routetune::cli
