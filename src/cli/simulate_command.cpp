// `routetune simulate CACHE`: replays search strategies against a finished study's recorded
// evaluations (no builds, no runs) and reports, per strategy, how many builds it needed to
// reach the target fraction of the study's best speedup and its curve. The study's
// expression is re-parsed against the compiler's catalog (from --spec, else the spec path
// the study recorded); when that is impossible the expression is rebuilt from the record.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "routetune/adapter.hpp"
#include "routetune/error.hpp"
#include "spec/value_ranges.hpp"
#include "routetune/expression.hpp"
#include "routetune/spec.hpp"
#include "search/sim/simulation.hpp"
#include "store/study_store.hpp"
#include "study/study_ledger.hpp"
#include "util/output_schema.hpp"

namespace routetune::cli {

namespace {

struct SimulateOptions {
    std::string cache;
    StoreArguments store;
    std::string spec;
    std::string search = "auto";
    std::string budget = "100";
    std::string seeds = "10";
    double target = 0.95;
    bool json = false;
};

Expression study_expression(const SimulateOptions& options, const StudyHeader& header,
                            const std::vector<Observation>& record) {
    std::string spec_path = options.spec.empty() ? header.spec_path : options.spec;
    if (!spec_path.empty() && std::filesystem::exists(spec_path)) {
        try {
            Spec spec = load_spec(spec_path);
            AdapterOptions adapter_options;
            adapter_options.compiler = spec.compiler.path;
            adapter_options.base_flags = spec.compiler.base;
            adapter_options.declared_knobs = spec.knobs;
            Catalog catalog = make_adapter(spec.compiler.adapter, adapter_options)->discover();
            ExpressionOptions expression_options;
            expression_options.include_unsafe = spec.search.include_unsafe;
            expression_options.source = options.cache + " (study expression)";
            std::string text = header.expression.empty() ? spec.search.routes : header.expression;
            return parse_expression(text, catalog, expression_options);
        } catch (const std::exception& e) {
            if (!options.spec.empty()) throw;
            std::cerr << "routetune: note: cannot re-parse the study's expression (" << e.what()
                      << "); simulating over the knob values the record holds\n";
        }
    } else {
        std::cerr << "routetune: note: no spec at hand; simulating over the knob values the record holds\n";
    }
    return expression_from_record(record);
}

int run(const SimulateOptions& options) {
    auto budget = static_cast<std::size_t>(parse_integer_option(options.budget, ranges::simulate_budget, "--budget"));
    auto seeds = static_cast<std::size_t>(parse_integer_option(options.seeds, ranges::simulate_seeds, "--seeds"));
    if (!(options.target > 0 && options.target <= 1)) throw UsageError("--target must be in (0, 1]");
    if (options.cache.empty() == options.store.store.empty())
        throw UsageError("simulate: name the study store once: CACHE (a file) or --store URL|PATH");
    std::unique_ptr<StudyStore> store = StudyStore::open_read_only(
        StoreLocation(options.cache.empty() ? options.store.store : options.cache, options.store.study));
    StudyHeader header = store->read_header().value_or(StudyHeader{});
    std::vector<Evaluation> evaluations = store->evaluations(CaseRows::Skip);
    auto default_evaluation = std::find_if(evaluations.begin(), evaluations.end(), [](const Evaluation& e) {
        return e.route.empty() && e.status != Status::Pending;
    });
    std::vector<Observation> record;
    for (const Evaluation& evaluation : evaluations) {
        if (evaluation.status == Status::Pending) continue;
        record.push_back(observe(evaluation, default_evaluation == evaluations.end() ? nullptr : &*default_evaluation));
    }
    Expression expression = study_expression(options, header, record);
    SimulationOptions simulation;
    simulation.budget = budget;
    simulation.target = options.target;
    simulation.seeds.clear();
    for (std::size_t s = 1; s <= seeds; ++s) simulation.seeds.push_back(s);
    std::vector<std::string> names;
    std::stringstream split(options.search);
    for (std::string name; std::getline(split, name, ',');) names.push_back(name);
    nlohmann::json strategies = nlohmann::json::array();
    for (const std::string& name : names) {
        SimulationReport report = simulate_recorded(name, expression, record, simulation);
        if (!options.json) {
            std::cout << simulation_summary(report);
            continue;
        }
        nlohmann::json entry = {{"strategy", report.strategy},
                                {"best_known_speedup", report.best_known_speedup},
                                {"runs", report.runs.size()},
                                {"reached", report.reached},
                                {"mean_builds_to_target", nullptr},
                                {"median_builds_to_target", nullptr},
                                {"curve", report.mean_fraction}};
        if (report.mean_builds_to_target) entry["mean_builds_to_target"] = *report.mean_builds_to_target;
        if (report.median_builds_to_target) entry["median_builds_to_target"] = *report.median_builds_to_target;
        strategies.push_back(std::move(entry));
    }
    if (options.json) {
        nlohmann::json out = {{"cache", redact_location(options.cache.empty() ? options.store.store : options.cache)},
                              {"expression", expression.text},
                              {"evaluations", record.size()}, {"budget", budget},
                              {"target", options.target},    {"strategies", strategies}};
        std::cout << versioned_json_text(out);
    }
    return 0;
}

}  // namespace

void add_simulate_command(CLI::App& app, Action& action) {
    auto options = std::make_shared<SimulateOptions>();
    CLI::App* command = app.add_subcommand(
        "simulate", "Replay search strategies against a finished study's evaluations (no builds, no runs)");
    command->add_option("cache", options->cache, "the study's cache (SQLite; or --store)");
    add_store_options(*command, options->store);
    command->add_option("--search", options->search, "strategy, or several separated by commas (default auto)");
    command->add_option("--budget", options->budget, "builds per simulated run (default 100)");
    command->add_option("--seeds", options->seeds, "runs per strategy, seeds 1..K (default 10)");
    command->add_option("--target", options->target, "fraction of the best known speedup to reach (default 0.95)");
    command->add_option("--spec", options->spec, "the study's spec, when it moved since the study ran");
    command->add_flag("--json", options->json, "print the reports as JSON, curves included");
    command->footer("Exit codes: 0 the simulation ran; 1 the store could not be read; 2 bad options or no store at the path.");
    command->callback([options, &action] { action = [options] { return run(*options); }; });
}

}  // namespace routetune::cli
