// `routetune verify LOCK [--rerun]`: is the lock still true here? Exit 0 valid (or review due,
// with a warning), 3 stale (every difference named), 1 regressed (--rerun), 2 bad input.
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "govern/audit_log.hpp"
#include "govern/verification.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune::cli {

namespace {

struct VerifyArguments {
    std::string lock;
    bool rerun = false;
    std::string audit;
    bool json = false;
};

void print_human(const Verification& v, const Lock& lock, const VerifyArguments& a) {
    std::cout << v.verdict << ": " << a.lock << " (route " << lock.route << ")\n";
    for (const auto& d : v.differences) std::cout << "  " << describe(d) << "\n";
    if (v.rerun) {
        for (const auto& failure : v.rerun->failures) std::cout << "  " << failure << "\n";
        if (const auto& c = v.rerun->confirmation)
            std::cout << "  fresh A/B: " << speedup_text(c->speedup, c->ci_low, c->ci_high) << "\n";
    }
}

int run(const VerifyArguments& a) {
    InterruptGuard guard;
    Lock lock = read_lock(a.lock);
    Verification v = verify_lock(lock, a.lock, a.rerun);
    for (const auto& warning : v.warnings) std::cerr << "routetune: warning: " << warning << "\n";
    if (a.json) std::cout << verification_json(v, lock, a.lock);
    else print_human(v, lock, a);
    AuditEntry entry = make_audit_entry("verify", a.lock, command_argv());
    entry.evidence = difference_evidence(a.lock, v.differences);
    entry.evidence["rerun"] = a.rerun;
    if (v.rerun) entry.evidence["failures"] = v.rerun->failures;
    entry.result = v.verdict;
    append_audit_entry(AuditTarget{a.audit, command_argv()}, a.lock, entry);
    if (v.verdict == "stale") return 3;
    return v.verdict == "regressed" ? 1 : 0;
}

}  // namespace

void add_verify_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<VerifyArguments>();
    CLI::App* c = app.add_subcommand("verify", "Check a lock against this environment (and with --rerun, the regression set and A/B)");
    c->add_option("lock", a->lock, "the lock file")->required();
    c->add_flag("--rerun", a->rerun, "rebuild and re-run the regression set and the interleaved A/B");
    c->add_option("--audit", a->audit, "audit log (default: LOCK.audit.jsonl)");
    c->add_flag("--json", a->json, "print the verdict as JSON");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
