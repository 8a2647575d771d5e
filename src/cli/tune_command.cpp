// `routetune tune`: the main job. Loads the spec, applies the command line's overrides,
// prepares the study (catalog, expression, strategy), and either prints the candidates
// (--dry-run) or runs the study, showing progress on stderr and the final table (or, with
// --json, only the summary JSON) on stdout; --output copies the chosen artifact out. The audit
// log beside the store records that the study started, how it ended, and each artifact written.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/tune_dry_run.hpp"
#include "report/noise_caution.hpp"
#include "report/left_out_note.hpp"
#include "govern/artifact_evidence.hpp"
#include "govern/audit_log.hpp"
#include "study/artifact_manifest.hpp"
#include "study/study_opening.hpp"
#include "study/study_runner.hpp"
#include "report/progress_line.hpp"
#include "report/render.hpp"
#include "report/report_row.hpp"
#include "search/strategy_registry.hpp"
#include "routetune/error.hpp"
#include "spec/value_ranges.hpp"
#include "store/store_location.hpp"
#include "util/clock.hpp"
#include "util/sha256.hpp"

namespace routetune::cli {

namespace {

struct TuneArguments {
    std::string spec;
    TuneOptions options;
    bool dry_run = false;
    bool json = false;
    bool wide = false;
    std::optional<std::string> time_limit;
    std::optional<std::string> max_routes;
    std::optional<std::string> mixed_max_knobs;
    std::optional<std::string> seed;
    std::optional<std::string> jobs;
    std::optional<std::string> measure_lanes;
    std::optional<std::string> queue_depth;
    StoreArguments store;
    std::string lease = "60s";
    std::string audit;
};

// One tune audit entry (beside the store unless --audit names a file).
void audit_tune(const TuneArguments& arguments, const StudyRunner& runner, const StudySetup& setup,
                const std::string& action, const std::string& result) {
    AuditEntry entry = make_audit_entry(action, runner.paths().cache.string(), command_argv());
    entry.evidence = {{"spec", setup.spec.file.string()}, {"spec_sha256", setup.spec.sha256}};
    if (action != "tune-started") entry.evidence["store_sha256"] = sha256_file(runner.paths().cache).value_or("");
    entry.proposed = {{"expression", setup.expression.text}, {"search", setup.search}};
    entry.result = result;
    append_audit_entry(AuditTarget{arguments.audit, command_argv()}, runner.paths().cache, entry);
}

// Every number of the command line is checked against the range its spec twin has.
void apply_numbers(TuneArguments& a) {
    TuneOptions& o = a.options;
    if (a.time_limit) o.time_limit_s = parse_duration(*a.time_limit, "--time-limit", ranges::time_limit_s);
    if (a.max_routes) o.max_routes = parse_integer_option(*a.max_routes, ranges::max_routes, "--max-routes");
    if (a.mixed_max_knobs)
        o.mixed_max_knobs = static_cast<int>(parse_integer_option(*a.mixed_max_knobs, ranges::mixed_max_knobs, "--mixed-max-knobs"));
    if (a.seed) o.seed = parse_integer_option(*a.seed, ranges::seed, "--seed");
    if (a.jobs)
        o.jobs = static_cast<int>(parse_integer_option(*a.jobs, o.store.empty() ? ranges::jobs : ranges::queue_jobs, "--jobs"));
    if (a.measure_lanes)
        o.measure_lanes = static_cast<int>(parse_integer_option(*a.measure_lanes, ranges::measure_lanes, "--measure-lanes"));
    if (a.queue_depth)
        o.queue_depth = static_cast<int>(parse_integer_option(*a.queue_depth, ranges::queue_depth, "--queue-depth"));
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

ArtifactManifest copy_output(const StudySummary& summary, const StudySetup& setup, const std::filesystem::path& output,
                             const StoreLocation& store, const std::filesystem::path& audit) {
    ManifestInfo info;
    info.study = summary.study;
    info.store = store.for_records();
    info.audit = std::filesystem::absolute(audit).lexically_normal().string();
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
    ArtifactManifest written = write_output(artifact, output, info);
    std::cerr << "routetune: wrote " << output.string() << " and " << manifest_path(output).string() << "\n";
    return written;
}

// A warm measurement process whose default measured differently first and last (it carried
// state from one candidate to the next, the machine drifted, or builds ran beside its runs: a
// warm process times with reported timing, whose measurements overlap builds, and a GPU build
// may run on the same GPU): its figures are suspect.
void print_warm_cautions(const StudySummary& summary, const Spec& spec) {
    for (const auto& p : summary.warm_processes) {
        if (!p.default_first_s || !p.default_last_s || *p.default_first_s <= 0) continue;
        double change = *p.default_last_s / *p.default_first_s - 1;
        if (std::abs(change) <= spec.timing.min_gain) continue;
        std::cerr << "routetune: warning: in the warm measurement process " << p.pid
                  << (p.lane.empty() ? "" : " (lane " + p.lane + ")") << " the default measured "
                  << format_percent(change) << " apart first and last, more than min_gain "
                  << format_percent(spec.timing.min_gain)
                  << ": the process carried state from run to run, the machine drifted, or builds ran beside its "
                     "runs on the same device; its search figures are suspect (the interleaved confirmation, measured "
                     "after its builds, is not)\n";
    }
}

// What the final table cannot say by itself: a default too noisy to decide against, a warm
// process that drifted, a study that stopped at its time limit, and the wall time against it.
void print_cautions(const StudySummary& summary, const Spec& spec) {
    if (summary.default_evaluation) {
        if (auto caution = noise_caution(*summary.default_evaluation, spec.timing))
            std::cerr << "routetune: warning: " << *caution << "\n";
    }
    print_warm_cautions(summary, spec);
    double limit = spec.search.time_limit_s;
    std::size_t finished = 0;
    for (const auto& e : summary.evaluations) finished += e.status != Status::Pending;
    std::size_t pending = summary.evaluations.size() - finished;
    double search_end_s = summary.wall_s - summary.confirmation_s + summary.confirmation_reserve_s;
    if (limit > 0 && search_end_s >= limit && finished < summary.candidates_total) {
        std::cerr << "routetune: time limit reached (" << format_duration(limit) << "): stopped after " << finished
                  << " evaluations of " << summary.candidates_total << " planned";
        if (pending > 0)
            std::cerr << "; " << pending << (pending == 1 ? " candidate" : " candidates")
                      << " built or building not measured, left pending for `tune --continue`";
        std::cerr << "\n";
    }
    if (limit > 0) {
        char text[260];
        std::snprintf(text, sizeof text, "wall time %.1f s of the %s --time-limit%s; the search kept %.1f s free for the "
                      "confirmation and the end of the study; the confirmation took %.1f s", summary.wall_s, format_duration(limit).c_str(),
                      summary.wall_s > limit ? " (over it)" : "", summary.confirmation_reserve_s, summary.confirmation_s);
        std::cerr << "routetune: " << text;
        if (summary.confirmation_deadline_s > 0 && summary.confirmation_deadline_s < limit) {
            std::snprintf(text, sizeof text, ", and had to end by %.1f s, leaving the closing of the warm measurement "
                          "processes inside the limit", summary.confirmation_deadline_s);
            std::cerr << text;
        }
        std::cerr << "\n";
    }
}

int run(TuneArguments& arguments) {
    TuneOptions& options = arguments.options;
    options.started_s = real_clock().now_s();  // --time-limit covers the setup (discovery) too
    options.command_line = joined_command_line();
    set_study_store(options, arguments.store.store);
    options.study = arguments.store.study;
    options.lease_s = parse_duration(arguments.lease, "--lease", ranges::lease_s);
    apply_numbers(arguments);
    if (!options.output.empty()) check_artifact_output(options.output);
    StudySetup setup = prepare_study(load_spec(arguments.spec), options);
    write_left_out_notes(std::cerr, setup.expression, setup.catalog);
    if (arguments.dry_run) return print_dry_run(setup, options, arguments.json, std::cout);

    StudyRunner runner(setup, options);
    runner.on_notice([](const std::string& note) { std::cerr << "routetune: " << note << "\n"; });
    ProgressWriter writer(std::cerr, stderr_is_tty());
    runner.on_progress([&](const StudyProgress& p) {
        writer.update(counters_of(p));
        if (!stderr_is_tty()) {
            std::cerr << "  " << p.last_status << "  " << p.last_route << "\n";
        }
    });
    runner.on_confirmation_progress([&](const ConfirmationProgress& p) { writer.confirming(p); });
    runner.on_minimization_progress([&](const MinimizationProgress& p) { writer.minimizing(p); });
    StudySummary summary;
    audit_tune(arguments, runner, setup, "tune-started", "study started");
    try {
        summary = runner.run();
    } catch (const Interrupted& e) {
        writer.abandon();
        audit_tune(arguments, runner, setup, "tune-interrupted", e.what());
        throw;
    } catch (const std::exception& e) {
        writer.abandon();
        audit_tune(arguments, runner, setup, "tune-failed", e.what());
        throw;
    }
    std::string winner = summary.winner ? "; winner " + summary.winner->route.to_string() : "";
    audit_tune(arguments, runner, setup, "tune-finished", std::string(to_string(summary.outcome)) + winner);
    writer.finish(progress_counters(summary));
    std::cout << render_summary(summary, arguments.json ? "json" : "table", setup.spec.accuracy.metric, arguments.wide);
    print_cautions(summary, setup.spec);
    if (!options.output.empty()) {
        const std::filesystem::path& cache = runner.paths().cache;
        std::filesystem::path audit = arguments.audit.empty() ? default_audit_path(cache) : std::filesystem::path(arguments.audit);
        ArtifactManifest written = copy_output(summary, setup, options.output,
                                               study_store_location(options, setup.spec.name, runner.paths()), audit);
        append_audit_entry(AuditTarget{arguments.audit, command_argv()}, cache,
                           artifact_written_entry(written, options.output, cache.string(), command_argv()));
    }
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
    c->add_flag("--continue", a->options.resume, "resume the study in the store; nothing finished runs again");
    c->add_flag("--ignore-fingerprint", a->options.ignore_fingerprint, "with --continue: accept a changed environment");
    c->add_flag("--dry-run", a->dry_run, "print the candidates and run nothing");
    c->add_flag("--keep-artifacts", a->options.keep_artifacts, "keep every candidate's artifact (reports the bytes used)");
    c->add_flag("--minimize", a->options.minimize,
                "after the confirmation, remove the winner's changes that do not pay (group testing; at most a fifth of the study's builds, never fewer than 16) and re-confirm");
    c->add_option("--output", a->options.output, "copy the winner's (or the default's) artifact here, with a manifest");
    add_store_options(*c, a->store);
    c->add_option("--cache", a->options.cache,
                  "the older name of --store PATH (an SQLite file), kept as an alias; the default store is "
                  ".routetune/<name>.sqlite beside the spec");
    c->add_option("--jobs,-j", a->jobs,
                  "builds at once (measurements still run one at a time); with --store URL: this process's "
                  "worker threads, 0 for none");
    c->add_option("--lease", a->lease, "with --store URL: the lease of this process's worker (default 60s)");
    c->add_option("--queue-depth", a->queue_depth,
                  "with --store URL: candidates kept queued for the workers at once (default 16)");
    c->add_option("--measure-lanes", a->measure_lanes,
                  "with reported timing: measure N candidates at once, lane i on GPU i (CUDA_VISIBLE_DEVICES=i)");
    c->add_option("--time-limit", a->time_limit, "the whole command's wall time (90s, 5m, 1h30m): the search stops in time "
                  "for the confirmation (its cost estimated from the default's timed build and runs), running measurements "
                  "finish, the candidates not measured stay pending for --continue; a limit too short for the "
                  "confirmation is said once the default is measured, and the search then uses the whole limit and "
                  "confirms nothing (the outcome names the limit with which --continue confirms)");
    c->add_option("--max-routes", a->max_routes, "evaluate at most N candidates; refuse a larger full search");
    c->add_option("--mixed-max-knobs", a->mixed_max_knobs, "knobs combined in mixed phase two");
    c->add_option("--seed", a->seed, "seed of randomised strategies");
    c->add_flag("--include-unsafe", a->options.include_unsafe, "let globs match knobs tagged unsafe");
    c->add_flag("--json", a->json, "print only the summary JSON on stdout");
    c->add_flag("--wide", a->wide, "the final table shows each route's changes from the default uncut instead of cutting them at 60 columns");
    c->footer("Exit codes: 0 the study finished (improved or default-stays); 1 no eligible route, or a runtime failure; 2 bad input (spec, expression, options) and nothing ran; 3 --continue found a different environment fingerprint (the differences are printed); 130 interrupted: state is saved, --continue resumes.");
    c->add_option("--audit", a->audit, "audit log (default: STORE.audit.jsonl beside the store)");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
