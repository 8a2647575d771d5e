// How one evaluation runs. build(): apply the route to the base flags through the adapter,
// check the result against the compiler's own account (Adapter::check; a route the compiler
// would override is route_conflict and is not built; the default route is never checked),
// write the route's files into a fresh scratch folder, expand the build command's placeholders
// and run it with the spec's timeout (once the default route is built, also at most
// [build] relative_timeout × its build time, never below the floor) and memory limit; a signal, a timeout, a non-zero exit or
// a missing artifact each become their own status. measure(): for each round (warm-ups first,
// then repeats) run every case once; the first round of each case is judged
// (eval/case_judgement.hpp: its output against its reference, or a component-failure case's
// outcome against the one the spec expects) and an inaccurate or failing case ends the
// evaluation at once (no time is spent timing a route that cannot win). Component-failure cases
// run in the first round only and are never part of a time. A repeat's sample is the sum of its cases' times. A run's
// time comes from the spec's timing source (eval/timing_source.hpp: wall time, CPU time, or
// what the program reports, which may also be read from its stdout by the adapter). Every
// process goes through the ProcessRunner, so tests run all of this over a fake. Runs may name
// {compiler} too: a trtexec engine is run by trtexec itself. A run's files are bounded as it
// writes them ([run] max_output_mb is its RLIMIT_FSIZE: SIGXFSZ is a run_failed naming the
// limit), its output and metrics are read back through the bounded reader (regular files only),
// an artifact that is a FIFO or device fails the build, and a failure on a full file system
// says so.
#include "eval/evaluator.hpp"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "eval/accuracy.hpp"
#include "eval/build_message.hpp"
#include "eval/case_judgement.hpp"
#include "eval/measured_rounds.hpp"
#include "eval/run_identity.hpp"
#include "spec/placeholders.hpp"
#include "eval/default_checker.hpp"
#include "eval/timing_source.hpp"
#include "eval/run_cost.hpp"
#include "eval/warm_measurements.hpp"
#include "util/bounded_read.hpp"
#include "util/files.hpp"
#include "util/redaction.hpp"
#include "util/sha256.hpp"
#include "util/signal_name.hpp"
#include "util/space_reserve.hpp"
#include "util/statistics.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kLogTail = 4096;
// Below this much free space the file system of a failed build or run is called full.
constexpr std::int64_t kFullDiskBytes = 1 << 20;

bool uses_placeholder(const std::vector<std::string>& argv, std::string_view name) {
    std::string token = "{" + std::string(name) + "}";
    return std::any_of(argv.begin(), argv.end(),
                       [&](const std::string& item) { return item.find(token) != std::string::npos; });
}

std::map<std::string, std::string> merged_environment(const std::map<std::string, std::string>& base,
                                                      const std::map<std::string, std::string>& route,
                                                      const PlaceholderValues& values) {
    std::map<std::string, std::string> env;
    for (const auto& [key, value] : base) env[key] = expand_text(value, values);
    for (const auto& [key, value] : route) env[key] = value;
    return env;
}

fs::path working_folder(const std::string& cwd, const Spec& spec, const PlaceholderValues& values) {
    if (cwd.empty()) return spec.dir;
    fs::path folder = expand_text(cwd, values);
    return folder.is_absolute() ? folder : spec.dir / folder;
}

std::string describe_exit(const ProcessResult& result, std::string_view what) {
    switch (result.outcome) {
        case ProcessOutcome::SpawnFailed: return std::string(what) + " could not start: " + result.error;
        case ProcessOutcome::Signaled: return std::string(what) + " killed by " + signal_name(result.signal);
        case ProcessOutcome::TimedOut: return std::string(what) + " timed out after " +
                                              std::to_string(result.wall_s).substr(0, 6) + " s";
        case ProcessOutcome::Exited: return std::string(what) + " exited with code " + std::to_string(result.exit_code);
    }
    return std::string(what) + " failed";
}

std::string last_line(const std::string& log) {
    std::size_t end = log.find_last_not_of(" \t\r\n");
    if (end == std::string::npos) return "";
    std::size_t start = log.find_last_of('\n', end);
    start = start == std::string::npos ? 0 : start + 1;
    return ": " + log.substr(start, std::min<std::size_t>(end + 1 - start, 200));
}

std::string output_limit_message(const std::string& what, std::uint64_t limit_mb, const char* table) {
    return what + " printed more than " + std::to_string(limit_mb) + " MB on stdout, stderr or {output} (" +
           table + " max_output_mb = " + std::to_string(limit_mb) + "); it was stopped there";
}

std::string file_size_message(const std::string& what, std::uint64_t limit_mb) {
    return what + " wrote a file larger than " + std::to_string(limit_mb) + " MB (the file-size limit of its runs, "
           "[run] max_output_mb = " + std::to_string(limit_mb) + ", or a lower ulimit -f routetune runs under); it was "
           "stopped there (SIGXFSZ)";
}

// "; the file system of folder is full (N bytes free)" when it has almost no room left: the
// likely reason a build or run failed.
std::string full_disk_note(const fs::path& folder) {
    std::int64_t free = free_bytes(folder);
    if (free < 0 || free >= kFullDiskBytes) return "";
    return "; the file system of '" + folder.string() + "' is full (" + std::to_string(free) + " bytes free)";
}

// Where the paired default's runs leave {output} and {metrics}: a sibling of the candidate's
// folder whose name has the same length ('p' and the route hash's last 15 digits: never a
// route's folder), so both runs' argv have the same length. A longer path (a subfolder) was
// measured to make the default's runs use 0.7% more CPU time than the candidate's: argv and
// the environment sit on the new process's stack, and their size moves its alignment.
fs::path partner_outputs(const fs::path& workdir) {
    std::string name = workdir.filename().string();
    return workdir.parent_path() / ("p" + name.substr(std::min<std::size_t>(1, name.size())));
}

bool larger_than(const fs::path& file, std::uint64_t limit) {
    std::error_code ec;
    return limit > 0 && fs::is_regular_file(file, ec) && fs::file_size(file, ec) > limit;
}

// The first run of a case, judged against its reference (when the baseline has one); a case
// that runs ok and compares its output leaves that output in record (the default's reference).
CaseVerdict judge_first_run(const Spec& spec, const CaseSpec& test_case, const CaseRun& run,
                            const RunBaseline& baseline, DefaultRecord* record) {
    auto reference = baseline.reference_outputs.find(test_case.name);
    const std::string* bytes = reference == baseline.reference_outputs.end() ? nullptr : &reference->second;
    CaseVerdict verdict = judge_case_run(spec.accuracy, test_case, run, bytes);
    if (record && run.status == Status::Ok && compares_output(test_case)) record->outputs[test_case.name] = run.output;
    return verdict;
}

}  // namespace

Evaluator::Evaluator(const Spec& spec, const Adapter& adapter, const Catalog& catalog, StudyPaths paths,
                     ProcessRunner& runner)
    : spec_(spec),
      adapter_(adapter),
      catalog_(catalog),
      paths_(std::move(paths)),
      runner_(runner),
      timing_(make_timing_source(spec.timing.source, adapter)) {
    if (spec.run.server.empty()) {
        fresh_ = make_process_launcher(runner_);
        return;
    }
    std::string compiler = catalog_.compiler.path.empty() ? spec_.compiler.path : catalog_.compiler.path;
    warm_ = make_warm_measurements(spec_, compiler, adapter_.apply(Route{}, catalog_), runner_, paths_.root / "warm");
    default_checker_ = std::make_unique<DefaultChecker>(
        spec_.cases, [this](const BuiltCandidate& built, const CaseSpec& test_case, CaseLauncher& via,
                            const std::string& file_tag) { return run_case(built, test_case, RunBaseline{}, &via, file_tag); });
    warm_->set_default_check([this](CaseLauncher& via) { return (*default_checker_)(via); });
}

Evaluator::~Evaluator() = default;

BuiltCandidate Evaluator::build(const Route& route, const std::string& phase, const std::string& copy) const {
    BuiltCandidate built;
    Evaluation& e = built.evaluation;
    e.route = route;
    e.phase = phase;
    e.started_at = iso8601_utc_now();
    built.workdir = paths_.workdir(route.hash() + copy);
    remove_tree_quietly(built.workdir);
    std::error_code ec;
    fs::create_directories(built.workdir, ec);
    built.artifact = built.workdir / "artifact";
    if (ec) {
        e.status = Status::BuildFailed;
        e.message = "cannot create the build's scratch folder '" + built.workdir.string() + "': " + ec.message() +
                    full_disk_note(paths_.root);
        return built;
    }

    AppliedRoute applied = adapter_.apply(route, catalog_);
    built.environment = applied.environment;
    if (!route.empty()) {
        RouteCheck check = adapter_.check(route, catalog_, applied);
        if (!check.conflicts.empty()) {
            e.status = Status::RouteConflict;
            e.message = describe_route_conflicts(check);
            return built;
        }
    }
    for (const auto& file : applied.files) {
        std::string error;
        if (!write_file(built.workdir / file.name, file.content, &error)) {
            e.status = Status::BuildFailed;
            e.message = "could not write " + file.name + ": " + error + full_disk_note(built.workdir);
            return built;
        }
    }
    std::string compiler = catalog_.compiler.path.empty() ? spec_.compiler.path : catalog_.compiler.path;
    PlaceholderValues values{{"compiler", {compiler}},
                             {"flags", applied.flags},
                             {"artifact", {built.artifact.string()}},
                             {"workdir", {built.workdir.string()}},
                             {"spec_dir", {spec_.dir.string()}}};
    ProcessSpec process;
    process.argv = expand_argv(spec_.build.command, values);
    process.cwd = working_folder(spec_.build.cwd, spec_, values);
    process.env = merged_environment(spec_.build.env, applied.environment, values);
    process.env[kBuildsAtOnceVariable] = std::to_string(builds_at_once_.load());
    std::string relative_limit;
    process.timeout_s = build_timeout(&relative_limit);
    process.memory_limit_bytes = spec_.build.memory_limit_mb << 20;
    process.nice_increment = spec_.build.nice;
    process.output_cap = 64 << 10;
    process.output_limit_bytes = spec_.build.max_output_mb << 20;
    process.label = route.hash();
    ProcessResult result = runner_.run(process);
    e.build_s = result.wall_s;
    e.build_log_tail = tail_of(result.out + result.err, kLogTail);
    if (result.output_exceeded) {
        e.status = Status::BuildFailed;
        e.message = output_limit_message("the build", spec_.build.max_output_mb, "[build]");
        return built;
    } else if (result.outcome == ProcessOutcome::TimedOut) {
        e.status = Status::BuildTimeout;
        e.message = describe_exit(result, "the build") + relative_limit;
        return built;
    } else if (result.outcome == ProcessOutcome::Signaled) {
        e.status = Status::BuildCrashed;
    } else if (!result.succeeded()) {
        e.status = Status::BuildFailed;
    } else if (!fs::exists(built.artifact)) {
        e.status = Status::BuildFailed;
        e.message = "the build succeeded but wrote no artifact at {artifact}";
        return built;
    } else if (!fs::is_regular_file(built.artifact, ec) && !fs::is_directory(built.artifact, ec)) {
        e.status = Status::BuildFailed;
        e.message = std::string("the build left {artifact} as ") +
                    (fs::is_fifo(built.artifact, ec) ? "a FIFO" : "a device or socket") +
                    ", not a file or folder: it is never read";
        return built;
    } else {
        e.artifact_sha256 = sha256_file(built.artifact).value_or("");
        e.artifact_bytes = fs::is_regular_file(built.artifact) ? fs::file_size(built.artifact, ec) : 0;
        e.artifact_path = built.artifact.string();
        return built;
    }
    std::string cause = build_error_line(result.err.empty() ? result.out : result.err);
    e.message = describe_exit(result, "the build") + (cause.empty() ? "" : ": " + cause) + full_disk_note(built.workdir);
    return built;
}

std::optional<BuiltCandidate> Evaluator::reuse(const Evaluation& e) const {
    BuiltCandidate built;
    built.evaluation = e;
    built.evaluation.status = Status::Pending;
    built.workdir = paths_.workdir(e.route.hash());
    built.artifact = built.workdir / "artifact";
    if (e.artifact_sha256.empty() || sha256_file(built.artifact).value_or("") != e.artifact_sha256) return std::nullopt;
    built.environment = adapter_.apply(e.route, catalog_).environment;
    return built;
}

std::string Evaluator::run_identity(const Evaluation& e) const {
    if (e.artifact_sha256.empty()) return "";
    return routetune::run_identity(e.artifact_sha256, adapter_.apply(e.route, catalog_));
}

double Evaluator::build_timeout(std::string* reason) const {
    double default_s = default_build_s_.load();
    const BuildSpec& build = spec_.build;
    if (build.relative_timeout <= 0 || default_s <= 0) return build.timeout_s;
    double relative = std::max(build.relative_timeout * default_s, build.relative_timeout_floor_s);
    if (relative >= build.timeout_s) return build.timeout_s;
    char text[160];
    std::snprintf(text, sizeof text, " (the relative limit: [build] relative_timeout %g x the default's %.3g s build, at least %g s)",
                  build.relative_timeout, default_s, build.relative_timeout_floor_s);
    *reason = text;
    return relative;
}

double Evaluator::run_timeout(const CaseSpec& test_case, const RunBaseline& baseline) const {
    double timeout = spec_.run.timeout_s;
    auto it = baseline.default_case_s.find(test_case.name);
    if (spec_.run.relative_timeout > 0 && it != baseline.default_case_s.end() && it->second > 0) {
        timeout = std::min(timeout, std::max(spec_.run.relative_timeout * it->second, spec_.run.relative_timeout_floor_s));
    }
    return timeout;
}

double Evaluator::load_timeout(double run_timeout_s, const Evaluation& build) const {
    return std::max(run_timeout_s, std::min(spec_.run.timeout_s, run_timeout_s + std::max(0.0, build.build_s)));
}

CaseRun Evaluator::run_case(const BuiltCandidate& built, const CaseSpec& test_case, const RunBaseline& baseline,
                            CaseLauncher* via, const std::string& file_tag) const {
    return run_case_in(built, test_case, baseline, built.workdir, built.evaluation.route.hash(), via, file_tag);
}

CaseRun Evaluator::run_case_in(const BuiltCandidate& built, const CaseSpec& test_case, const RunBaseline& baseline,
                               const fs::path& outputs, const std::string& label, CaseLauncher* via,
                               const std::string& file_tag) const {
    CaseRun run;
    std::string stem = file_tag + case_file_stem(test_case.name);
    fs::path output = outputs / ("output-" + stem);
    fs::path metrics = outputs / ("metrics-" + stem + ".json");
    std::error_code ec;
    fs::remove(output, ec);
    fs::remove(metrics, ec);
    std::string compiler = catalog_.compiler.path.empty() ? spec_.compiler.path : catalog_.compiler.path;
    PlaceholderValues values{{"compiler", {compiler}},
                             {"artifact", {built.artifact.string()}},
                             {"output", {output.string()}},
                             {"metrics", {metrics.string()}},
                             {"workdir", {built.workdir.string()}},
                             {"spec_dir", {spec_.dir.string()}}};
    if (!test_case.input.empty()) values["input"] = {test_case.input.string()};
    CaseLaunch launch{{}, built.evaluation.route, built.evaluation.artifact_sha256, test_case.name, test_case.args,
                      built.artifact, built.workdir, output, metrics, test_case.input};
    ProcessSpec& process = launch.process;
    process.argv = expand_argv(spec_.run.command, values);
    process.argv.insert(process.argv.end(), test_case.args.begin(), test_case.args.end());
    process.cwd = working_folder(spec_.run.cwd, spec_, values);
    process.env = merged_environment(spec_.run.env, built.environment, values);
    for (const auto& [key, value] : built.placement) process.env[key] = value;
    process.timeout_s = run_timeout(test_case, baseline);
    launch.load_timeout_s = load_timeout(process.timeout_s, built.evaluation);
    process.memory_limit_bytes = spec_.run.memory_limit_mb << 20;
    process.output_cap = timing_source_traits(spec_.timing.source).stdout_cap;
    if (!uses_placeholder(spec_.run.command, "output")) process.stdout_file = output;
    process.output_limit_bytes = spec_.run.max_output_mb << 20;
    process.file_size_limit_bytes = process.output_limit_bytes;
    process.label = label;
    LaunchResult launched = (via ? *via : warm_ ? static_cast<CaseLauncher&>(*warm_) : *fresh_).run(launch);
    const ProcessResult& result = launched.process;
    run.code_sha256 = launched.code_sha256;
    run.process_first = launched.process_first;
    run.setup_s = launched.setup_s;
    run.exit_code = result.exit_code;
    run.signal = result.signal;
    run.stderr_tail = tail_of(result.err, kLogTail);
    run.time_s = run.wall_s = result.wall_s;
    std::string what = "case '" + test_case.name + "'";
    if (!result.stdout_file_error.empty()) {
        run.status = Status::RunFailed;
        run.message = what + ": " + result.stdout_file_error + full_disk_note(built.workdir);
        return run;
    } else if (result.output_exceeded || larger_than(output, process.output_limit_bytes) ||
               larger_than(metrics, process.output_limit_bytes)) {
        run.status = Status::RunFailed;
        run.message = output_limit_message(what, spec_.run.max_output_mb, "[run]");
        return run;
    } else if (result.outcome == ProcessOutcome::Signaled && result.signal == SIGXFSZ) {
        run.status = Status::RunFailed;
        run.message = file_size_message(what, spec_.run.max_output_mb);
        return run;
    } else if (result.outcome == ProcessOutcome::TimedOut) {
        run.status = Status::RunTimeout;
    } else if (result.outcome == ProcessOutcome::Signaled) {
        run.status = Status::RunCrashed;
    } else if (!result.succeeded()) {
        run.status = Status::RunFailed;
    }
    if (run.status != Status::Ok) {
        run.message = launched.message.empty() ? describe_exit(result, what) + last_line(result.err) + full_disk_note(built.workdir)
                                               : launched.message;
        return run;
    }
    bool output_named = uses_placeholder(spec_.run.command, "output");
    BoundedRead written = read_bounded(output, process.output_limit_bytes, "output of " + what);
    if (!written.bytes && !written.missing) {
        run.status = Status::RunFailed;
        run.message = written.error;
        return run;
    }
    run.output = written.bytes ? std::move(*written.bytes) : output_named ? "" : result.out;
    FinishedRun finished{result, metrics, [&] { return output_named ? result.out : run.output; },
                         process.output_limit_bytes};
    std::string error;
    std::optional<std::vector<double>> times = timing_->times(finished, &error);
    if (!times) {
        run.status = Status::RunFailed;
        run.message = what + ": " + error;
        return run;
    }
    run.time_s = median(*times);
    run.samples = spec_.timing.reported_list == "samples" ? *times : std::vector<double>{run.time_s};
    return run;
}

// What measure() keeps beside the rounds' times: the paired default's build and where its runs go.
struct Evaluator::Rounds {
    MeasuredRounds times;
    std::optional<BuiltCandidate> partner;  // the default's build the runs alternate with
    fs::path partner_outputs;               // where the partner's runs leave {output} and {metrics} (removed at the end)
    std::string label;                      // the measured route's hash: its pending row names the partner's runs too
    std::string pairing_note;               // why the pairing ended early
    bool partner_is_self = false;           // the partner is the measured build itself (the default's A/A)
    std::map<std::size_t, double> first_wall_s;  // case -> wall time of the measured build's first run that was not
                                                 // its warm process's first request
};

bool Evaluator::take_run(Evaluation& e, std::size_t i, int round, const CaseRun& run, const RunBaseline& baseline,
                         DefaultRecord* record, Rounds& rounds) const {
    const CaseSpec& test_case = spec_.cases[i];
    CaseResult& result = e.cases[i];
    result.name = test_case.name;
    result.exit_code = run.exit_code;
    result.signal = run.signal;
    result.stderr_tail = run.stderr_tail;
    CaseVerdict verdict = round == 0 ? judge_first_run(spec_, test_case, run, baseline, record)
                                     : CaseVerdict{run.status, result.loss, run.message};
    if (round == 0) result.loss = verdict.loss;
    result.status = verdict.status;
    if (verdict.status != Status::Ok && verdict.status != Status::Inaccurate) {
        e.status = verdict.status;
        e.message = verdict.message;
        e.finished_at = iso8601_utc_now();
        return false;
    }
    if (verdict.status == Status::Inaccurate && e.message.empty())
        e.message = "case '" + test_case.name + "': " + verdict.message;
    // A later run of this build costs the run less what the warm process keeps for it.
    rounds.times.add(i, run.time_s, run.samples, run.wall_s - run.setup_s, is_timed(test_case));
    if (!run.process_first) rounds.first_wall_s.emplace(i, run.wall_s);
    return true;
}

void Evaluator::run_partner(Rounds& rounds, std::size_t i, const RunBaseline& baseline) const {
    if (!rounds.partner) return;
    CaseRun run = run_case_in(*rounds.partner, spec_.cases[i], baseline, rounds.partner_outputs, rounds.label, nullptr, "");
    if (run.status == Status::Ok) {
        rounds.times.add_partner(run.time_s);
        if (rounds.partner_is_self && !run.process_first) rounds.first_wall_s.emplace(i, run.wall_s);
        return;
    }
    rounds.partner.reset();
    rounds.pairing_note = "the default's run paired with this route's failed (" + run.message + "); timed unpaired";
}

Evaluation Evaluator::measure(const BuiltCandidate& built, const RunBaseline& baseline,
                              DefaultRecord* record) const {
    Evaluation e = built.evaluation;
    if (e.status != Status::Pending) return e;
    std::size_t cases = spec_.cases.size();
    int warmup = spec_.timing.warmup;
    Rounds rounds{MeasuredRounds(cases, warmup), baseline.paired_default, partner_outputs(built.workdir),
                  built.evaluation.route.hash(), "", false, {}};
    if (!rounds.partner && baseline.paired_self) {
        rounds.partner = built;
        rounds.partner_is_self = true;
    }
    std::error_code ec;
    if (rounds.partner) {
        rounds.partner->placement = built.placement;
        fs::create_directories(rounds.partner_outputs, ec);
    }
    e.cases.resize(cases);
    for (int round = 0; round < warmup + spec_.timing.repeats; ++round) {
        bool partner_first = (round - warmup) % 2 == 0;  // D C, C D, D C, ... from the first measured round
        rounds.times.begin(round);
        for (std::size_t i = 0; i < cases; ++i) {
            const CaseSpec& test_case = spec_.cases[i];
            if (round > 0 && !is_timed(test_case)) continue;
            bool paired_case = is_timed(test_case);  // a component-failure case is never part of a time
            if (partner_first && paired_case) run_partner(rounds, i, baseline);
            if (!take_run(e, i, round, run_case(built, test_case, baseline), baseline, record, rounds)) {
                remove_tree_quietly(rounds.partner_outputs);
                return e;
            }
            if (!partner_first && paired_case) run_partner(rounds, i, baseline);
        }
        if (round == 0 && !e.message.empty()) {
            // Every case was checked; the route is out. Its one round is kept as a time so a
            // report can show what the inaccuracy would have bought.
            for (std::size_t i = 0; i < cases; ++i)
                if (is_timed(spec_.cases[i])) e.cases[i].timing = summarize({rounds.times.first_time(i)});
            e.timing = summarize({rounds.times.round_time()});
            remove_tree_quietly(rounds.partner_outputs);
            e.status = Status::Inaccurate;
            e.finished_at = iso8601_utc_now();
            return e;
        }
        rounds.times.end(rounds.partner.has_value());
    }
    std::map<std::string, double> repeat_wall_s, first_wall_s;
    for (std::size_t i = 0; i < cases; ++i) {
        repeat_wall_s[spec_.cases[i].name] = rounds.times.median_wall(i);
        if (auto first = rounds.first_wall_s.find(i); first != rounds.first_wall_s.end())
            first_wall_s[spec_.cases[i].name] = first->second;
    }
    if (record) {
        record->wall_s = repeat_wall_s;
        record->first_wall_s = first_wall_s;
    }
    RunCost cost = run_cost(repeat_wall_s, first_wall_s);
    e.run_first_s = cost.first_s;
    e.run_repeat_s = cost.repeat_s;
    rounds.times.finish(e, rounds.partner.has_value());  // a pairing cut short keeps none of its rounds
    remove_tree_quietly(rounds.partner_outputs);
    if (!rounds.pairing_note.empty()) e.message = rounds.pairing_note;
    e.status = Status::Ok;
    e.finished_at = iso8601_utc_now();
    if (warm_ && e.route.empty()) remember_default(built);
    return e;
}

void Evaluator::remember_default(const BuiltCandidate& built) const {
    if (default_checker_) default_checker_->remember(built);
}

std::optional<std::vector<double>> Evaluator::sample_once(const BuiltCandidate& built, const RunBaseline& baseline) const {
    std::vector<std::vector<double>> per_case;
    for (const auto& test_case : spec_.cases) {
        if (!is_timed(test_case)) continue;
        CaseRun run = run_case(built, test_case, baseline);
        if (run.status != Status::Ok) return std::nullopt;
        per_case.push_back(run.samples);
    }
    return add_cases(per_case);
}

}  // namespace routetune
