// `routetune review LOCK [--rerun]`: the promoted evidence against a fresh A/B (and with
// --rerun the regression set); recommends keep, re-tune or retire with reasons, records it in
// the lock and the audit log, and moves the review date when kept. Exit 0 whatever it
// recommends; 2 bad input (no lock, its store gone).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "govern/review.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune::cli {

namespace {

struct ReviewArguments {
    std::string lock;
    bool rerun = false;
    std::string audit;
    bool json = false;
};

int run(const ReviewArguments& a) {
    InterruptGuard guard;
    ReviewResult result = review_lock(a.lock, a.rerun, AuditTarget{a.audit, command_argv()});
    if (a.json) {
        nlohmann::json out{{"lock", a.lock},
                           {"recommendation", result.recommendation},
                           {"reasons", result.reasons},
                           {"review_by", result.review_by}};
        if (result.run && result.run->confirmation) {
            const auto& c = *result.run->confirmation;
            out["speedup"] = {{"value", c.speedup}, {"ci95", {c.ci_low, c.ci_high}}};
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    }
    std::cout << result.recommendation << ": " << a.lock << "\n";
    for (const auto& reason : result.reasons) std::cout << "  " << reason << "\n";
    std::cout << "review by " << result.review_by << "\n";
    return 0;
}

}  // namespace

void add_review_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<ReviewArguments>();
    CLI::App* c = app.add_subcommand("review", "Review a lock after use: keep, re-tune or retire, with reasons");
    c->add_option("lock", a->lock, "the lock file")->required();
    c->add_flag("--rerun", a->rerun, "also re-run the regression set");
    c->add_option("--audit", a->audit, "audit log (default: LOCK.audit.jsonl)");
    c->add_flag("--json", a->json, "print the review as JSON");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
