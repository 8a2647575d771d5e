// `routetune tune`: the main job. Loads the spec, applies the command line's overrides,
// prepares the study (catalog, expression, strategy), and either prints the candidates
// (--dry-run) or runs the study, showing progress on stderr and the final table (or, with
// --json, only the summary JSON) on stdout; --output copies the chosen artifact out.
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "study/artifact_manifest.hpp"
#include "study/study_runner.hpp"
#include "report/progress_line.hpp"
#include "report/render.hpp"
#include "report/expand_report.hpp"
#include "search/strategy_registry.hpp"
#include "routetune/error.hpp"
#include "spec/value_ranges.hpp"

namespace routetune::cli {

namespace {

struct TuneArguments {
    std::string spec;
    TuneOptions options;
    bool dry_run = false;
    bool json = false;
    std::optional<std::string> time_limit;
    std::optional<std::string> max_routes;
    std::optional<std::string> mixed_max_knobs;
    std::optional<std::string> seed;
    std::optional<std::string> jobs;
    std::optional<std::string> measure_lanes;
};

// Every number of the command line is checked against the range its spec twin has.
void apply_numbers(TuneArguments& a) {
    TuneOptions& o = a.options;
    if (a.time_limit) {
        o.time_limit_s = parse_duration(*a.time_limit, "--time-limit");
        if (!in_range(*o.time_limit_s, ranges::time_limit_s))
            throw UsageError("--time-limit: " + *a.time_limit + " is not valid (expected " + describe(ranges::time_limit_s) + " s)");
    }
    if (a.max_routes) o.max_routes = parse_integer_option(*a.max_routes, ranges::max_routes, "--max-routes");
    if (a.mixed_max_knobs)
        o.mixed_max_knobs = static_cast<int>(parse_integer_option(*a.mixed_max_knobs, ranges::mixed_max_knobs, "--mixed-max-knobs"));
    if (a.seed) o.seed = parse_integer_option(*a.seed, ranges::seed, "--seed");
    if (a.jobs) o.jobs = static_cast<int>(parse_integer_option(*a.jobs, ranges::jobs, "--jobs"));
    if (a.measure_lanes)
        o.measure_lanes = static_cast<int>(parse_integer_option(*a.measure_lanes, ranges::measure_lanes, "--measure-lanes"));
}

int dry_run(const StudySetup& setup, const TuneArguments& arguments) {
    const std::string& search = setup.search;
    if (search == "fast" || search == "full" || search == "mixed") {
        ExpandRequest request;
        request.routes = setup.expression.text;
        request.mode = search;
        request.json = arguments.json;
        request.include_unsafe = setup.spec.search.include_unsafe;
        request.mixed_max_knobs = setup.spec.search.mixed_max_knobs;
        return run_expand(setup.catalog, request, std::cout);
    }
    BigCount space = count_candidates(setup.expression, ExpansionMode::Full);
    std::cout << "search " << search << " proposes candidates from the results so far; it runs nothing here.\n"
              << "space: " << space.to_string() << " routes; budget: at most " << setup.spec.search.max_routes
              << " candidates";
    if (setup.spec.search.time_limit_s > 0) std::cout << " or " << setup.spec.search.time_limit_s << " s";
    std::cout << "\n";
    return 0;
}

ProgressCounters counters_of(const StudyProgress& p) {
    ProgressCounters c;
    c.done = p.done;
    c.total = p.planned;
    for (const auto& [status, count] : p.counts) {
        if (status == Status::Ok) c.eligible = count;
        else c.failed[status] = count;
    }
    if (p.best_speedup > 1) c.best_speedup = p.best_speedup;
    c.elapsed_s = p.elapsed_s;
    return c;
}

void copy_output(const StudySummary& summary, const StudySetup& setup, const std::filesystem::path& output) {
    ManifestInfo info;
    info.study = summary.study;
    info.fingerprint = summary.fingerprint;
    info.outcome = summary.outcome;
    info.spec_path = summary.spec_path;
    std::filesystem::path artifact;
    if (summary.winner && !summary.winner_artifact.empty()) {
        info.route = summary.winner->route;
        info.speedup = summary.winner->speedup;
        info.ci_low = summary.winner->ci_low;
        info.ci_high = summary.winner->ci_high;
        artifact = summary.winner_artifact;
    } else if (summary.default_evaluation) {
        artifact = summary.default_evaluation->artifact_path;
    }
    if (artifact.empty() || !std::filesystem::exists(artifact)) {
        throw RuntimeFailure("--output: the chosen route's artifact is no longer at '" + artifact.string() +
                             "'; rebuild it with `routetune build " + setup.spec.file.string() + " --route ... --output`");
    }
    write_output(artifact, output, info);
    std::cerr << "routetune: wrote " << output.string() << " and " << manifest_path(output).string() << "\n";
}

int run(TuneArguments& arguments) {
    TuneOptions& options = arguments.options;
    options.command_line = joined_command_line();
    apply_numbers(arguments);
    if (!options.output.empty()) check_artifact_output(options.output);
    StudySetup setup = prepare_study(load_spec(arguments.spec), options);
    if (arguments.dry_run) return dry_run(setup, arguments);

    StudyRunner runner(setup, options);
    ProgressWriter writer(std::cerr, stderr_is_tty());
    runner.on_progress([&](const StudyProgress& p) {
        writer.update(counters_of(p));
        if (!stderr_is_tty()) {
            std::cerr << "  " << p.last_status << "  " << p.last_route << "\n";
        }
    });
    StudySummary summary;
    try {
        summary = runner.run();
    } catch (...) {
        writer.finish(ProgressCounters{});
        throw;
    }
    writer.finish(progress_counters(summary));
    std::cout << render_summary(summary, arguments.json ? "json" : "table", setup.spec.accuracy.metric);
    if (!options.output.empty()) copy_output(summary, setup, options.output);
    return summary.outcome == Outcome::NoEligibleRoute ? 1 : 0;
}

}  // namespace

void add_tune_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<TuneArguments>();
    CLI::App* c = app.add_subcommand("tune", "Tune a spec: build, check and time candidate routes; keep the fastest correct one");
    c->add_option("spec", a->spec, "study spec (TOML)")->required();
    auto* routes = c->add_option("--routes", a->options.routes, "route expression (overrides [search] routes)");
    auto* routes_file = c->add_option("--routes-file", a->options.routes_file, "file holding a route expression");
    routes->excludes(routes_file);
    c->add_option("--search", a->options.search, strategy_list(" | "));
    c->add_option("--cache", a->options.cache, "study store (default: .routetune/<name>.sqlite beside the spec)");
    c->add_flag("--continue", a->options.resume, "resume the study in the cache; nothing finished runs again");
    c->add_flag("--ignore-fingerprint", a->options.ignore_fingerprint, "with --continue: accept a changed environment");
    c->add_flag("--dry-run", a->dry_run, "print the candidates and run nothing");
    c->add_flag("--keep-artifacts", a->options.keep_artifacts, "keep every candidate's artifact (reports the bytes used)");
    c->add_option("--output", a->options.output, "copy the winner's (or the default's) artifact here, with a manifest");
    c->add_option("--jobs,-j", a->jobs, "builds at once (measurements still run one at a time)");
    c->add_option("--measure-lanes", a->measure_lanes,
                  "with reported timing: measure N candidates at once, lane i on GPU i (CUDA_VISIBLE_DEVICES=i)");
    c->add_option("--time-limit", a->time_limit, "stop proposing candidates after this long (90s, 5m, 1h30m)");
    c->add_option("--max-routes", a->max_routes, "evaluate at most N candidates; refuse a larger full search");
    c->add_option("--mixed-max-knobs", a->mixed_max_knobs, "knobs combined in mixed phase two");
    c->add_option("--seed", a->seed, "seed of randomised strategies");
    c->add_flag("--include-unsafe", a->options.include_unsafe, "let globs match knobs tagged unsafe");
    c->add_flag("--json", a->json, "print only the summary JSON on stdout");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
