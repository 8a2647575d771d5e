// A study's identity is its spec, expression, search and environment. Resuming under another
// environment would mix numbers from two machines, so a changed fingerprint stops the run
// (exit 3) unless the user says otherwise; a changed expression or search is a different
// study. Starting afresh never destroys the old one: the store renames it with a timestamp,
// under the writer lock, so a study another process is writing is never touched.
#include "study/study_opening.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "routetune/error.hpp"
#include "eval/accuracy.hpp"
#include "eval/case_judgement.hpp"
#include "eval/fingerprint.hpp"
#include "study/process_tracking.hpp"
#include "study/study_location.hpp"
#include "util/bounded_read.hpp"
#include "util/files.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

std::string environment_value(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::string host_name() {
    char buffer[256] = {};
    return gethostname(buffer, sizeof buffer - 1) == 0 ? buffer : "";
}

}  // namespace

std::map<std::string, std::string> study_fingerprint(const StudySetup& setup) {
    auto probe = make_system_probe();
    auto values = take_fingerprint(setup.spec, *probe).values;
    // The version discovery read (trtexec has no --version; its TensorRT and tuner versions
    // come from --helpBuildRoute).
    if (!setup.catalog.compiler.version.empty()) values["compiler.catalog_version"] = setup.catalog.compiler.version;
    return values;
}

std::unique_ptr<StudyStore> open_study(const StudySetup& setup, const TuneOptions& options, const StudyPaths& paths) {
    std::map<std::string, std::string> fingerprint = study_fingerprint(setup);
    StoreLocation where = study_store_location(options, setup.spec.name, paths);
    std::unique_ptr<StudyStore> store =
        options.resume ? StudyStore::open_to_continue(where) : StudyStore::open_new_study(where, {paths.root});
    std::optional<StudyHeader> header = store->read_header();
    if (options.resume) end_leftover_processes(*store);
    if (header) {
        if (header->expression != setup.expression.text || header->mode != setup.search) {
            throw UsageError("--continue: " + store->location() + " holds a study of '" + header->expression +
                             "' (search " + header->mode + "), not '" + setup.expression.text + "' (search " +
                             setup.search + "); drop --continue to start a new study");
        }
        auto recorded = nlohmann::json::parse(header->fingerprint_json, nullptr, false);
        Fingerprint before;
        if (recorded.is_object()) before.values = recorded.get<std::map<std::string, std::string>>();
        std::vector<std::string> changes = diff(before, Fingerprint{fingerprint});
        if (!changes.empty() && !options.ignore_fingerprint) {
            std::string text;
            for (const auto& line : changes) text += "  " + line + "\n";
            throw FingerprintMismatch(text + "(rerun without --continue for a new study, or add --ignore-fingerprint)");
        }
        if (!store->read_note("metric")) store->write_note("metric", setup.spec.accuracy.metric);
        return store;
    }
    StudyHeader fresh;
    fresh.name = setup.spec.name;
    fresh.spec_sha256 = setup.spec.sha256;
    fresh.spec_path = setup.spec.file.string();
    fresh.expression = setup.expression.text;
    fresh.mode = setup.search;
    fresh.seed = setup.spec.search.seed;
    fresh.fingerprint_json = nlohmann::json(fingerprint).dump();
    fresh.tool_version = ROUTETUNE_VERSION;
    fresh.command_line = options.command_line;
    fresh.user = environment_value("USER");
    fresh.host = host_name();
    fresh.created_at = iso8601_utc_now();
    store->write_header(fresh);
    // Named from the start, so that `report` and `serve` of a running study name its metric.
    store->write_note("metric", setup.spec.accuracy.metric);
    return store;
}

void save_default_record(const StudyPaths& paths, const DefaultRecord& record) {
    std::error_code ec;
    fs::create_directories(paths.references, ec);
    std::string error;
    if (!write_file(paths.references / "wall_times.json", nlohmann::json(record.wall_s).dump(), &error) ||
        !write_file(paths.references / "first_run_times.json", nlohmann::json(record.first_wall_s).dump(), &error)) {
        throw RuntimeFailure("cannot save the default route's run times: " + error);
    }
    for (const auto& [name, bytes] : record.outputs) {
        std::string error;
        if (!write_file(paths.references / (case_file_stem(name) + ".out"), bytes, &error)) {
            throw RuntimeFailure("cannot save the default route's output of case '" + name + "': " + error);
        }
    }
}

namespace {

// {case name: seconds} of a study file of the default's run times; empty when missing or unreadable
// (a study from before the file existed, for first_run_times.json).
std::map<std::string, double> saved_case_seconds(const fs::path& file) {
    std::map<std::string, double> seconds_by_case;
    BoundedRead saved = read_bounded(file, kMaxStudyFileBytes, "study file");
    auto json = nlohmann::json::parse(saved.bytes.value_or("{}"), nullptr, false);
    if (!json.is_object()) return seconds_by_case;
    for (const auto& [name, seconds] : json.items()) {
        if (seconds.is_number() && seconds.get<double>() > 0) seconds_by_case[name] = seconds.get<double>();
    }
    return seconds_by_case;
}

}  // namespace

RunBaseline golden_baseline(const Spec& spec) {
    RunBaseline baseline;
    for (const auto& test_case : spec.cases) {
        if (test_case.reference.empty()) continue;
        baseline.reference_outputs[test_case.name] = read_golden_reference(test_case, spec.run.max_output_mb);
    }
    return baseline;
}

RunBaseline make_run_baseline(const Spec& spec, const StudyPaths& paths) {
    RunBaseline baseline = golden_baseline(spec);
    for (const auto& test_case : spec.cases) {
        if (!test_case.reference.empty() || !compares_output(test_case)) continue;
        fs::path file = paths.references / (case_file_stem(test_case.name) + ".out");
        BoundedRead saved = read_bounded(file, spec.run.max_output_mb << 20, "saved output");
        if (!saved.bytes) {
            throw RuntimeFailure("the default route's output of case '" + test_case.name + "' cannot be read (" +
                                 saved.error + "): nothing can be checked; start the study afresh (without --continue)");
        }
        baseline.reference_outputs[test_case.name] = std::move(*saved.bytes);
    }
    baseline.default_case_s = saved_case_seconds(paths.references / "wall_times.json");
    baseline.default_case_first_s = saved_case_seconds(paths.references / "first_run_times.json");
    return baseline;
}

bool every_case_has_golden(const Spec& spec) {
    for (const auto& test_case : spec.cases) {
        if (test_case.reference.empty()) return false;
    }
    return true;
}

}  // namespace routetune
