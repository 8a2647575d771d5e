// `routetune retire LOCK --reason TEXT`: the shutdown path. The lock stays with its evidence,
// marked retired and sealed again; `flags` then gives the default route (exit 0, logged) and
// `verify` says retired. Exit 0 retired, 2 bad input (no lock, already retired, no reason, a
// signed lock without --sign), 4 tampered (nothing changed).
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/lock_options.hpp"
#include "govern/retirement.hpp"
#include "routetune/error.hpp"
#include "util/shell_quote.hpp"

namespace routetune::cli {

namespace {

struct RetireArguments {
    std::string lock;
    std::string reason;
    LockOptions options;
};

int run(const RetireArguments& a) {
    LockStanding standing = judge_lock(a.lock, a.options, false);
    if (!standing.readable()) throw UsageError(standing.problem);
    print_notes(standing);
    if (standing.state == LockState::Tampered) return answer_tampered(standing, a.lock, "not retired");
    Lock retired = retire_lock(standing, a.lock, RetireRequest{a.reason, command_argv(), lock_signer(a.options)});
    std::cout << "retired " << retired.route << ": " << a.lock << " (" << retired.retired.reason << ")\n"
              << "builds now use the default route's flags: " << shell_words(retired.default_flags) << "\n";
    return 0;
}

}  // namespace

void add_retire_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<RetireArguments>();
    CLI::App* c = app.add_subcommand("retire", "Retire a lock: builds use the default route; the lock keeps its evidence");
    c->add_option("lock", a->lock, "the lock file")->required();
    c->add_option("--reason", a->reason, "why the route is retired")->required();
    add_lock_options(*c, a->options, true);
    c->footer("Exit codes: 0 retired; 2 bad input; 4 tampered.");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
