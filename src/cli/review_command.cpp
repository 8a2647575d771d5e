// `routetune review LOCK [--rerun]`: the promoted evidence against a fresh A/B (and with
// --rerun the regression set); recommends keep, re-tune or retire with reasons, records it in
// the lock and the audit log, and moves the review date when kept. Exit 0 keep, 5 re-tune or
// retire (so CI can act: `routetune retire` is the shutdown), 4 tampered (nothing runs), 2 bad
// input (no lock, a retired lock, its store gone).
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/lock_options.hpp"
#include "govern/review.hpp"
#include "routetune/error.hpp"
#include "util/output_schema.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune::cli {

namespace {

constexpr int kExitNotKept = 5;

struct ReviewArguments {
    std::string lock;
    bool rerun = false;
    LockOptions options;
    bool json = false;
};

void print(const ReviewResult& result, const ReviewArguments& a) {
    if (a.json) {
        nlohmann::json out{{"lock", a.lock},
                           {"recommendation", result.recommendation},
                           {"reasons", result.reasons},
                           {"review_by", result.review_by},
                           {"override_rate", override_rate_json(result.overrides)}};
        if (result.run && result.run->confirmation) {
            const auto& c = *result.run->confirmation;
            out["speedup"] = {{"value", c.speedup}, {"ci95", {c.ci_low, c.ci_high}}};
        }
        std::cout << versioned_json_text(out);
        return;
    }
    std::cout << result.recommendation << ": " << a.lock << "\n";
    for (const auto& reason : result.reasons) std::cout << "  " << reason << "\n";
    std::cout << "review by " << result.review_by << "\n"
              << "overrides: " << override_rate_text(result.overrides) << "\n";
    if (result.recommendation == "retire")
        std::cout << "to retire it: routetune retire " << a.lock << " --reason TEXT\n";
}

int run(const ReviewArguments& a) {
    InterruptGuard guard;
    LockStanding standing = judge_lock(a.lock, a.options);
    if (!standing.readable()) throw UsageError(standing.problem);
    print_notes(standing);
    if (standing.state == LockState::Tampered) return answer_tampered(standing, a.lock, "not reviewed");
    if (standing.state == LockState::Retired)
        throw UsageError(a.lock + " was retired on " + standing.lock->retired.time + " (" + standing.lock->retired.reason +
                         "); there is no route in force to review");
    ReviewOptions options{a.rerun, command_argv(), lock_signer(a.options)};
    ReviewResult result = review_lock(standing, a.lock, options);
    print(result, a);
    return result.recommendation == "keep" ? 0 : kExitNotKept;
}

}  // namespace

void add_review_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<ReviewArguments>();
    CLI::App* c = app.add_subcommand("review", "Review a lock after use: keep, re-tune or retire, with reasons");
    c->add_option("lock", a->lock, "the lock file")->required();
    c->add_flag("--rerun", a->rerun, "also re-run the regression set");
    add_lock_options(*c, a->options, true);
    c->add_flag("--json", a->json, "print the review as JSON");
    c->footer("Exit codes: 0 keep; 1 a runtime failure (e.g. --rerun could not build); 2 bad input; 4 tampered; 5 re-tune or retire; "
              "130 stopped by SIGINT or SIGTERM (--rerun: its builds and runs are ended).");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
