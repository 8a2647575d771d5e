// `routetune gc STORE [--keep winner,default,locked] [--older-than D] [--logs]`: drops
// artifacts and log tails, keeps hashes and evidence, never a locked artifact.
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "spec/value_ranges.hpp"
#include "cli/commands.hpp"
#include "govern/garbage_collector.hpp"
#include "govern/governed_setup.hpp"

namespace routetune::cli {

namespace {

struct GcArguments {
    std::string store;
    std::string keep = "winner,default,locked";
    std::string older_than;
    bool logs = false;
    std::string audit;
};

int run(const GcArguments& a) {
    GcOptions options;
    options.keep = parse_keep_list(a.keep);
    if (!a.older_than.empty()) {
        char unit = a.older_than.back();
        options.older_than_s = unit == 'd' || unit == 'w' ? parse_days(a.older_than, "--older-than") * 86400.0
                                                         : parse_duration(a.older_than, "--older-than", ranges::older_than_s);
    }
    options.logs = a.logs;
    options.audit = AuditTarget{a.audit, command_argv()};
    GcReport report = collect_garbage(a.store, options);
    std::cout << "removed " << report.artifacts_removed << " artifacts (" << report.bytes_freed << " bytes)";
    if (a.logs) std::cout << "; cleared the log tails of " << report.logs_cleared << " evaluations";
    if (report.paths_cleared > 0)
        std::cout << "; cleared " << report.paths_cleared << " artifact paths whose folders were already gone";
    std::cout << "\n";
    for (const auto& kept : report.kept) std::cout << "  kept " << kept << "\n";
    for (const auto& note : report.notes) std::cerr << "routetune: note: " << note << "\n";
    return 0;
}

}  // namespace

void add_gc_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<GcArguments>();
    CLI::App* c = app.add_subcommand("gc", "Remove a study's artifacts and log tails, keeping hashes, evidence and locked artifacts");
    c->footer("Exit codes: 0 done (what was dropped and kept is printed); 1 a runtime failure; 2 bad store or options.");
    c->add_option("store", a->store, "the study store (.sqlite)")->required();
    c->add_option("--keep", a->keep, "artifacts to keep: winner,default,locked (locked ones are always kept)");
    c->add_option("--older-than", a->older_than, "only evaluations finished this long ago (30d, 12h, 90m)");
    c->add_flag("--logs", a->logs, "also clear build-log and stderr tails");
    c->add_option("--audit", a->audit, "audit log (default: STORE.audit.jsonl)");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
