// An enumerated search's candidates come from expand(), in the order tune evaluates them;
// with --continue, routes the store holds as finished are skipped (pending ones would run
// again, so they stay). An adaptive strategy cannot list its candidates before seeing
// results, so its plan is the space's size and the budget, in text or JSON alike.
#include "cli/tune_dry_run.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "report/expand_report.hpp"
#include "routetune/error.hpp"
#include "search/strategy_registry.hpp"
#include "store/study_store.hpp"
#include "eval/study_paths.hpp"
#include "study/study_runner.hpp"
#include "util/output_schema.hpp"

namespace routetune::cli {

namespace {

std::set<std::string> finished_routes(const StudySetup& setup, const TuneOptions& options) {
    StudyPaths paths = study_paths(setup.spec, options);
    if (!std::filesystem::exists(paths.cache))
        throw UsageError("--continue: there is no study to continue at " + paths.cache.string() +
                         " (drop --continue to start one, or name its store with --store)");
    std::set<std::string> done;
    for (const auto& e : StudyStore::open_read_only(paths.cache)->evaluations(CaseRows::Skip))
        if (e.status != Status::Pending) done.insert(e.route.to_string());
    return done;
}

// The expansion a strategy replays when it has a fixed list of candidates (fast, full, mixed).
std::optional<ExpansionMode> listed_expansion(const std::string& search) {
    const StrategyEntry* entry = find_strategy(search);
    return entry ? entry->expansion : std::nullopt;
}

}  // namespace

int print_dry_run(const StudySetup& setup, const TuneOptions& options, bool json, std::ostream& out) {
    const std::string& search = setup.search;
    std::optional<std::set<std::string>> done;
    if (options.resume) done = finished_routes(setup, options);
    std::uint64_t budget = setup.spec.search.max_routes;
    nlohmann::ordered_json doc;
    BigCount space = count_candidates(setup.expression, ExpansionMode::Full);
    doc["mode"] = search;
    doc["expression"] = setup.expression.text;
    doc["space"] = count_number(space);
    doc["space_exact"] = space.to_string();
    doc["max_routes"] = budget;
    doc["time_limit_s"] = setup.spec.search.time_limit_s > 0 ? nlohmann::ordered_json(setup.spec.search.time_limit_s) : nullptr;
    if (done) doc["finished"] = done->size();
    auto expansion = listed_expansion(search);
    if (expansion) {
        auto stream = expand(setup.expression, *expansion);
        nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
        std::uint64_t room = done ? (budget > done->size() ? budget - done->size() : 0) : budget;
        while (candidates.size() < room) {
            auto route = stream->next();
            if (!route) break;
            if (done && done->count(route->to_string())) continue;
            candidates.push_back(route->to_string());
        }
        doc["count"] = candidates.size();
        doc["candidates"] = candidates;
        if (search == "mixed") {
            BigCount bound = mixed_phase_two_bound(setup.expression, setup.spec.search.mixed_max_knobs);
            doc["phase_two_bound"] = count_number(bound);
            doc["phase_two_bound_exact"] = bound.to_string();
        }
    } else {
        doc["candidates"] = nullptr;
        doc["note"] = "search " + search + " proposes candidates from the results so far; it lists none in advance";
    }
    if (json) {
        out << versioned_json_text(doc);
        return 0;
    }
    if (done) out << "# " << done->size() << " finished in the store; remaining:\n";
    if (!expansion) {
        out << doc["note"].get<std::string>() << ".\nspace: " << space.to_string()
            << " routes; budget: at most " << budget << " evaluations, the default's included";
        if (setup.spec.search.time_limit_s > 0) out << ", or " << setup.spec.search.time_limit_s << " s";
        out << "\n";
        return 0;
    }
    for (const auto& route : doc["candidates"]) {
        std::string text = route.get<std::string>();
        out << (text.empty() ? "(default)" : text) << "\n";
    }
    if (search == "mixed") out << "phase two: at most " << doc["phase_two_bound_exact"].get<std::string>() << " candidates\n";
    return 0;
}

}  // namespace routetune::cli
