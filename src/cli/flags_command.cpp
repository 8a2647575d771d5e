// `routetune flags LOCK [--fallback]`: the flags a build uses, one line of shell words. A stale
// lock exits 3, or with --fallback prints the default route's flags, warns and logs a
// `fallback` entry whose evidence is the differences. `routetune flags SPEC --route R`: what
// any route maps to.
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "govern/governed_setup.hpp"
#include "govern/audit_log.hpp"
#include "govern/verification.hpp"
#include "util/shell_quote.hpp"

namespace routetune::cli {

namespace {

struct FlagsArguments {
    std::string target;
    std::string route;
    bool fallback = false;
    std::string audit;
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

int lock_flags(const FlagsArguments& a) {
    Lock lock = read_lock(a.target);
    std::vector<Difference> differences = environment_differences(lock, a.target, *make_system_probe());
    if (differences.empty()) {
        std::cout << shell_words(lock.flags) << "\n";
        return 0;
    }
    std::cerr << "routetune: " << a.target << " is stale here (" << differences.size() << " differences):\n";
    for (const auto& d : differences) std::cerr << "  " << describe(d) << "\n";
    if (!a.fallback) {
        std::cerr << "routetune: no flags printed; --fallback prints the default route's flags\n";
        return 3;
    }
    std::cerr << "routetune: warning: falling back to the default route's flags (route " << lock.route
              << " is not proven here); logged\n";
    std::cout << shell_words(lock.default_flags) << "\n";
    AuditEntry entry = make_audit_entry("fallback", a.target, command_argv());
    entry.evidence = difference_evidence(a.target, differences);
    entry.proposed = lock.route;
    entry.result = "default route's flags printed: " + shell_words(lock.default_flags);
    append_audit_entry(AuditTarget{a.audit, command_argv()}, a.target, entry);
    return 0;
}

}  // namespace

void add_flags_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<FlagsArguments>();
    CLI::App* c = app.add_subcommand("flags", "Print the flags a lock applies (or, with --route, what a route of a spec maps to)");
    c->footer("Exit codes: 0 the flags were printed (with --fallback, the default route's for a stale lock, logged); 2 bad lock, spec, route or options; 3 the lock is stale (without --fallback).");
    c->add_option("target", a->target, "a lock file, or a spec with --route")->required();
    auto* route = c->add_option("--route", a->route, "with a spec: the route to map");
    auto* fallback = c->add_flag("--fallback", a->fallback, "a stale lock prints the default route's flags (exit 0, logged)");
    c->add_option("--audit", a->audit, "audit log (default: LOCK.audit.jsonl)");
    route->excludes(fallback);
    c->callback([a, route, &action] {
        bool for_route = route->count() > 0;
        action = [a, for_route] { return for_route ? route_flags(*a) : lock_flags(*a); };
    });
}

}  // namespace routetune::cli
