// `routetune promote STORE|--store URL [--study NAME] [--route R] --lock FILE`: the regression
// set and a fresh A/B on the study's winner (or R), and the lock only when both pass. Exit 0
// promoted, 1 refused (every failure named), 2 bad input.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "govern/governed_setup.hpp"
#include "govern/promotion.hpp"
#include "govern/regression_run.hpp"
#include "routetune/error.hpp"
#include "util/output_schema.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune::cli {

namespace {

struct PromoteArguments {
    PromoteRequest request;
    std::string store;
    StoreArguments where;
    std::string route;
    std::string lock;
    std::string audit;
    std::string owner;
    std::string sign;
    std::string allowed_signers;
    std::string review_after = "90d";
    bool json = false;
};

int run(PromoteArguments& a, bool has_route, bool has_owner) {
    InterruptGuard guard;
    PromoteRequest& request = a.request;
    if (a.store.empty() == a.where.store.empty())
        throw UsageError("promote: name the study's store once: STORE (an SQLite file) or --store URL|PATH");
    request.store = StoreLocation(a.store.empty() ? a.where.store : a.store, a.where.study);
    if (has_route) request.route = a.route;
    request.lock = a.lock;
    if (has_owner) request.owner = a.owner;
    request.sign_key = a.sign;
    request.allowed_signers = a.allowed_signers;
    request.review_after_days = parse_days(a.review_after, "--review-after");
    request.audit = AuditTarget{a.audit, command_argv()};
    PromoteResult result = promote(request);
    const LockEvidence& e = result.lock.evidence;
    if (a.json) {
        nlohmann::json out{{"promoted", result.promoted}, {"route", result.route}, {"failures", result.failures}};
        if (result.promoted) {
            out["lock"] = a.lock;
            out["speedup"] = {{"value", e.speedup}, {"ci95", {e.speedup_ci_low, e.speedup_ci_high}}};
            out["builds"] = e.builds;
            out["runs"] = e.runs;
            out["review_by"] = result.lock.review_by;
            out["owner"] = result.lock.owner;
            out["lock_sha256"] = result.lock.lock_sha256;
            if (!result.lock.signer.empty()) out["signer"] = result.lock.signer;
            out["overrides_winner"] = e.overrides_winner;
        }
        std::cout << versioned_json_text(out);
    } else if (result.promoted) {
        std::cout << "promoted " << result.route << ": "
                  << speedup_text(e.speedup, e.speedup_ci_low, e.speedup_ci_high) << " over the default in a fresh A/B; "
                  << e.cases.size() << " cases accurate (" << e.builds << " builds, " << e.runs << " runs)\n"
                  << "wrote " << a.lock << " (owner " << result.lock.owner << ", review by " << result.lock.review_by
                  << (result.lock.signer.empty() ? "" : ", signed by " + result.lock.signer) << ")\n";
        if (e.overrides_winner)
            std::cout << "recorded as an override: the study's winner is "
                      << (e.winner.empty() ? "none (outcome " + e.study_outcome + ")" : e.winner) << "\n";
    } else {
        std::cout << "refused " << result.route << "; no lock written:\n";
        for (const auto& failure : result.failures) std::cout << "  " << failure << "\n";
    }
    return result.promoted ? 0 : 1;
}

}  // namespace

void add_promote_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<PromoteArguments>();
    CLI::App* c = app.add_subcommand("promote", "Put a tuned route through the regression set and a fresh A/B; write a lock if it passes");
    c->add_option("store", a->store, "the study store (.sqlite), or --store");
    add_store_options(*c, a->where);
    auto* route = c->add_option("--route", a->route, "a route the study evaluated as ok (default: its confirmed winner)");
    c->add_option("--lock", a->lock, "the lock file to write (e.g. routetune.lock.json)");
    auto* owner = c->add_option("--owner", a->owner,
                                "who answers for the route (default: the signer, else the account of the real uid)");
    c->add_option("--reason", a->request.reason, "why it is promoted");
    c->add_option("--review-after", a->review_after, "days until the review date (90d, 12w)");
    c->add_option("--audit", a->audit, "audit log (default: LOCK.audit.jsonl; the lock records it)");
    c->add_option("--sign", a->sign, "sign the lock with this ssh key (namespace routetune-lock)");
    c->add_option("--allowed-signers", a->allowed_signers,
                  "with --sign: git's allowed-signers file naming the key's principal (the recorded actor)");
    c->add_flag("--json", a->json, "print the result as JSON");
    c->footer("Exit codes: 0 promoted (lock written); 1 refused (every failing case named; no lock written) or a "
              "runtime failure (no lock written); 2 bad input (store, route, --lock path, owner, key), nothing built; "
              "130 stopped by SIGINT or SIGTERM (its builds and runs ended, a promote-interrupted audit entry, no lock written).");
    c->callback([a, route, owner, &action] {
        bool has_route = route->count() > 0;
        bool has_owner = owner->count() > 0;
        action = [a, has_route, has_owner] { return run(*a, has_route, has_owner); };
    });
}

}  // namespace routetune::cli
