// `routetune verify LOCK [--rerun]`: is the lock still true here? Exit 0 valid (or review due,
// with a warning; or retired, which builds honour with the default route), 3 stale (every
// difference named), 1 regressed (--rerun), 4 tampered (what differs named), 2 bad input.
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/lock_options.hpp"
#include "govern/audit_log.hpp"
#include "govern/verification.hpp"
#include "routetune/error.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune::cli {

namespace {

struct VerifyArguments {
    std::string lock;
    bool rerun = false;
    LockOptions options;
    bool json = false;
};

void print_human(const Verification& v, const LockStanding& standing, const VerifyArguments& a) {
    if (standing.state == LockState::Tampered) {
        std::cout << "tampered: " << a.lock << "\n"
                  << tampering_text(standing) << "  no flag of it is used; `routetune flags " << a.lock
                  << " --fallback` gives the spec's default route\n";
        return;
    }
    const Lock& lock = *standing.lock;
    std::cout << to_string(v.verdict) << ": " << a.lock << " (route " << lock.route << ")\n";
    if (lock.is_retired())
        std::cout << "  retired on " << lock.retired.time << " by " << lock.retired.actor << ": " << lock.retired.reason
                  << "\n  builds use the default route's flags\n";
    if (!standing.signer.empty()) std::cout << "  signed by " << standing.signer << "\n";
    for (const auto& d : v.differences) std::cout << "  " << describe(d) << "\n";
    if (v.rerun) {
        for (const auto& failure : v.rerun->failures) std::cout << "  " << failure << "\n";
        if (const auto& c = v.rerun->confirmation)
            std::cout << "  fresh A/B: " << speedup_text(c->speedup, c->ci_low, c->ci_high) << "\n";
    }
}

int run(const VerifyArguments& a) {
    InterruptGuard guard;
    LockStanding standing = judge_lock(a.lock, a.options);
    if (!standing.readable()) throw UsageError(standing.problem);
    Verification v = verify_lock(standing, a.lock, a.rerun);
    for (const auto& warning : v.warnings) std::cerr << "routetune: warning: " << warning << "\n";
    if (a.json) std::cout << verification_json(v, standing, a.lock);
    else print_human(v, standing, a);
    AuditEntry entry = lock_entry("verify", a.lock, standing);
    entry.evidence["rerun"] = a.rerun;
    if (v.rerun) entry.evidence["failures"] = v.rerun->failures;
    entry.result = to_string(v.verdict);
    record(standing, entry);
    switch (v.verdict) {
        case LockVerdict::Tampered: return kExitTampered;
        case LockVerdict::Stale: return 3;
        case LockVerdict::Regressed: return 1;
        case LockVerdict::Valid:
        case LockVerdict::ReviewDue:
        case LockVerdict::Retired: return 0;
    }
    return 0;
}

}  // namespace

void add_verify_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<VerifyArguments>();
    CLI::App* c = app.add_subcommand("verify", "Check a lock's seal and this environment (and with --rerun, the regression set and A/B)");
    c->footer("Exit codes: 0 valid (a review date passed is a warning; a retired lock is reported as retired); 1 regressed (--rerun: a failing case or no confirmed gain); 2 bad lock or options, or no lock file; 3 stale (the differences are printed); 4 tampered (what differs is named); 130 stopped by SIGINT or SIGTERM (--rerun: its builds and runs ended).");
    c->add_option("lock", a->lock, "the lock file")->required();
    c->add_flag("--rerun", a->rerun, "rebuild and re-run the regression set and the interleaved A/B");
    add_lock_options(*c, a->options, false);
    c->add_flag("--json", a->json, "print the verdict as JSON");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
