// Import parses the cache (store/trtexec_cache), maps its iterations to Evaluations, and
// writes header, evaluations (one transaction) and outcome into a fresh store. Everything
// GPT's header says that a StudyHeader has no field for is kept as "trtexec.*" fingerprint
// keys (strings; numbers as their JSON text), which is also where export looks first, so
// import → export gives the original header back. For a study tuned by routetune itself the
// export header is rebuilt from the study header and, when it still loads, its spec.
#include "gpt/trtexec_study.hpp"

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <vector>

#include "routetune/error.hpp"
#include "util/bounded_read.hpp"
#include "routetune/spec.hpp"
#include "store/study_store.hpp"
#include "gpt/trtexec_cache.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

#ifndef ROUTETUNE_VERSION
#define ROUTETUNE_VERSION "unknown"
#endif

namespace routetune {

namespace fs = std::filesystem;

namespace {

constexpr const char* kImportedMessage =
    "imported from a GPT tuning cache: one GPU time per route, so the speedup has no confidence interval";

std::string number_text(double value) { return nlohmann::json(value).dump(); }

// True when every knob route names is at the value default_route gives it.
bool at_defaults(const Route& route, const Route& default_route) {
    for (const auto& [name, value] : route.assignments()) {
        if (default_route.get(name) != value) return false;
    }
    return true;
}

std::map<std::string, std::string> header_fingerprint(const TrtexecCacheHeader& header) {
    return {{"compiler.adapter", "trtexec"},
            {"trtexec.tuner_version", header.tuner_version},
            {"trtexec.accuracy_algorithm", header.accuracy_algorithm},
            {"trtexec.atol", number_text(header.accuracy_parameter.atol)},
            {"trtexec.rtol", number_text(header.accuracy_parameter.rtol)},
            {"trtexec.epsilon", number_text(header.accuracy_parameter.epsilon)},
            {"trtexec.default_build_route", header.default_build_route},
            {"trtexec.files", header.files_json},
            {"trtexec.argv", nlohmann::json(header.argv).dump()}};
}

StudyOutcome gpt_outcome(const std::vector<Evaluation>& evaluations) {
    StudyOutcome outcome;
    outcome.recorded_at = iso8601_utc_now();
    const Evaluation* baseline = nullptr;
    const Evaluation* fastest = nullptr;
    for (const auto& e : evaluations) {
        if (!baseline && e.phase == "default") baseline = &e;
        if (e.status == Status::Ok && (!fastest || e.timing.median_s < fastest->timing.median_s)) fastest = &e;
    }
    if (!fastest) {
        outcome.outcome = Outcome::NoEligibleRoute;
        outcome.message = "no iteration of the tuning cache built, ran and passed the accuracy check";
        return outcome;
    }
    bool baseline_ok = baseline && baseline->status == Status::Ok;
    if (baseline_ok && (fastest == baseline || fastest->timing.median_s >= baseline->timing.median_s)) {
        outcome.outcome = Outcome::DefaultStays;
        outcome.message = std::string(kImportedMessage) + "; no route was faster than the default";
        return outcome;
    }
    outcome.outcome = Outcome::Improved;
    outcome.winner = fastest->route;
    if (baseline_ok && fastest->timing.median_s > 0) {
        outcome.speedup = outcome.speedup_ci_low = outcome.speedup_ci_high =
            baseline->timing.median_s / fastest->timing.median_s;
        outcome.message = kImportedMessage;
    } else {
        outcome.speedup_ci_low = outcome.speedup_ci_high = outcome.speedup;
        outcome.message = std::string(kImportedMessage) + "; the default route has no time, so the speedup is unknown";
    }
    return outcome;
}

std::map<std::string, std::string> fingerprint_of(const StudyHeader& header) {
    std::map<std::string, std::string> values;
    auto doc = nlohmann::json::parse(header.fingerprint_json, nullptr, false);
    if (!doc.is_object()) return values;
    for (const auto& [key, value] : doc.items()) values[key] = value.is_string() ? value.get<std::string>() : value.dump();
    return values;
}

double number_or(const std::map<std::string, std::string>& values, const std::string& key, double fallback) {
    auto it = values.find(key);
    if (it == values.end()) return fallback;
    auto doc = nlohmann::json::parse(it->second, nullptr, false);
    return doc.is_number() ? doc.get<double>() : fallback;
}

TrtexecCacheHeader export_header(const StudyHeader& study, const std::vector<Evaluation>& evaluations) {
    auto values = fingerprint_of(study);
    TrtexecCacheHeader header;
    header.searching_algorithm = study.mode;
    header.command_line = study.command_line;
    header.tuning_expr = study.expression;
    if (values.count("trtexec.tuner_version")) {
        header.tuner_version = values["trtexec.tuner_version"];
        header.accuracy_algorithm = values["trtexec.accuracy_algorithm"];
        header.accuracy_parameter.atol = number_or(values, "trtexec.atol", header.accuracy_parameter.atol);
        header.accuracy_parameter.rtol = number_or(values, "trtexec.rtol", header.accuracy_parameter.rtol);
        header.accuracy_parameter.epsilon = number_or(values, "trtexec.epsilon", header.accuracy_parameter.epsilon);
        header.default_build_route = values["trtexec.default_build_route"];
        header.files_json = values["trtexec.files"].empty() ? "{}" : values["trtexec.files"];
        auto argv = nlohmann::json::parse(values["trtexec.argv"], nullptr, false);
        if (argv.is_array()) {
            for (const auto& item : argv) {
                if (item.is_string()) header.argv.push_back(item.get<std::string>());
            }
        }
        return header;
    }
    static const std::regex tuner(R"(tuner (\S+))");
    std::smatch match;
    for (const char* key : {"compiler.catalog_version", "compiler.version"}) {
        const std::string& version = values[key];
        if (header.tuner_version.empty() && std::regex_search(version, match, tuner)) header.tuner_version = match[1].str();
    }
    for (const auto& e : evaluations) {
        if (e.phase == "default") {
            header.default_build_route = e.route.to_string();
            break;
        }
    }
    if (!study.spec_path.empty() && fs::exists(study.spec_path)) {
        try {
            Spec spec = load_spec(study.spec_path);
            header.accuracy_algorithm = trtexec_accuracy_algorithm(spec.accuracy.metric).value_or(spec.accuracy.metric);
            header.accuracy_parameter.atol = spec.accuracy.atol;
            header.accuracy_parameter.rtol = spec.accuracy.rtol;
            header.accuracy_parameter.epsilon = spec.accuracy.threshold;
        } catch (const UsageError&) {
            // The spec changed past loading since the study: keep GPT's default accuracy fields.
        }
    }
    return header;
}

}  // namespace

TrtexecImportResult import_trtexec_cache(const fs::path& cache_file, const fs::path& store_file,
                                         const TrtexecImportOptions& options) {
    std::string text = read_bounded_file(cache_file, kMaxTuningCacheBytes, "tuning cache");
    TrtexecCache cache = parse_trtexec_cache(text, cache_file.string());
    if (options.threshold) {
        if (!std::isfinite(*options.threshold) || *options.threshold < 0) {
            throw UsageError("--threshold " + number_text(*options.threshold) +
                             ": the accuracy threshold must be a finite number >= 0");
        }
        cache.header.accuracy_parameter.epsilon = *options.threshold;
    }
    std::vector<Evaluation> evaluations = trtexec_cache_to_evaluations(cache);
    Route default_route = Route::parse(cache.header.default_build_route);
    bool have_default = false;
    for (auto& e : evaluations) have_default = have_default || e.phase == "default";
    for (auto& e : evaluations) {
        if (have_default) break;
        if (at_defaults(e.route, default_route)) {
            e.phase = "default";
            have_default = true;
        }
    }

    std::unique_ptr<StudyStore> store = StudyStore::open(store_file);
    if (store->count() > 0) {
        throw UsageError(store_file.string() + " already holds " + std::to_string(store->count()) +
                         " evaluations; import into a new file");
    }
    StudyHeader header;
    header.name = cache_file.stem().string();
    header.spec_sha256 = sha256_hex(text);
    header.spec_path = fs::absolute(cache_file).string();
    header.expression = cache.header.tuning_expr;
    header.mode = cache.header.searching_algorithm;
    header.fingerprint_json = nlohmann::json(header_fingerprint(cache.header)).dump();
    header.tool_version = ROUTETUNE_VERSION;
    header.command_line = cache.header.command_line;
    header.created_at = iso8601_utc_now();
    store->write_header(header);
    store->record_many(evaluations);
    StudyOutcome outcome = gpt_outcome(evaluations);
    store->record_outcome(outcome);
    return TrtexecImportResult{evaluations.size(), outcome.outcome};
}

std::string export_trtexec_cache(const fs::path& store_file) {
    if (!fs::exists(store_file)) throw UsageError("no study cache at " + store_file.string());
    std::unique_ptr<StudyStore> store = StudyStore::open_read_only(store_file);
    auto study = store->read_header();
    if (!study) throw UsageError(store_file.string() + " holds no study (no header)");
    std::vector<Evaluation> evaluations;
    for (auto& e : store->evaluations()) {
        if (e.status != Status::Pending) evaluations.push_back(std::move(e));
    }
    return write_trtexec_cache(evaluations_to_trtexec_cache(evaluations, export_header(*study, evaluations)));
}

}  // namespace routetune
