// A study's summary is rebuilt from its store alone, so `report` shows exactly what `tune`
// recorded, also for a study that is still running or was interrupted. The default is the
// empty route's evaluation, else (an imported GPT sweep, whose baseline names every knob) the
// first one of phase "default".
#include <cmath>
#include <ctime>
#include <iomanip>
#include <optional>
#include <sstream>
#include <nlohmann/json.hpp>

#include "routetune/error.hpp"
#include "study/study_runner.hpp"
#include "store/study_store.hpp"
#include "study/study_notes.hpp"

namespace routetune {

namespace {

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; nullopt for other text.
std::optional<std::time_t> parse_utc(const std::string& text) {
    std::tm tm{};
    std::istringstream in(text);
    in >> std::get_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
    if (in.fail()) return std::nullopt;
    return timegm(&tm);
}

// From the first evaluation's start to the last one's end (whole seconds): the time the
// study's evaluations span, across interruptions included.
double evaluation_span_s(const std::vector<Evaluation>& evaluations) {
    std::optional<std::time_t> first, last;
    for (const auto& e : evaluations) {
        auto start = parse_utc(e.started_at);
        auto end = parse_utc(e.finished_at);
        if (start && (!first || *start < *first)) first = start;
        if (end && (!last || *end > *last)) last = end;
    }
    return first && last && *last > *first ? static_cast<double>(*last - *first) : 0;
}

}  // namespace

StudySummary load_study_summary(const StoreLocation& cache) {
    if (cache.is_file() && !std::filesystem::exists(cache.text))
        throw UsageError("no study cache at " + cache.text);
    return summarize_store(*StudyStore::open_read_only(cache));
}

StudySummary summarize_store(const StudyStore& store) {
    StudySummary summary;
    if (auto header = store.read_header()) {
        summary.study = header->name;
        summary.spec_path = header->spec_path;
        summary.search = header->mode;
        summary.expression = header->expression;
        auto fingerprint = nlohmann::json::parse(header->fingerprint_json, nullptr, false);
        if (fingerprint.is_object()) {
            for (const auto& [key, value] : fingerprint.items()) {
                summary.fingerprint[key] = value.is_string() ? value.get<std::string>() : value.dump();
            }
        }
    }
    summary.evaluations = store.evaluations();
    summary.wall_s = evaluation_span_s(summary.evaluations);
    for (const auto& e : summary.evaluations) {
        if (e.route.empty() && e.status != Status::Pending) summary.default_evaluation = e;
    }
    for (const auto& e : summary.evaluations) {
        if (!summary.default_evaluation && e.phase == "default" && e.status != Status::Pending) summary.default_evaluation = e;
    }
    if (auto confirmation = store.read_confirmation()) summary.confirmations = confirmation->candidates;
    apply_study_notes(store, summary);  // after the confirmations: their builds' medians are notes
    summary.outcome = Outcome::Unfinished;
    if (auto outcome = store.read_outcome()) {
        summary.outcome = outcome->outcome;
        if (outcome->winner) {
            Confirmation winner;
            winner.route = *outcome->winner;
            winner.speedup = outcome->speedup;
            winner.ci_low = outcome->speedup_ci_low;
            winner.ci_high = outcome->speedup_ci_high;
            for (const auto& c : summary.confirmations) {
                if (c.route == winner.route) winner = c;
            }
            summary.winner = winner;
            summary.winner_artifact = outcome->artifact_path;
        }
        if (outcome->minimal_route) {
            summary.minimal = Confirmation{*outcome->minimal_route, {}, {}, outcome->minimal_speedup,
                                           outcome->minimal_ci_low, outcome->minimal_ci_high, {}};
        }
        summary.message = outcome->message;
    }
    return summary;
}

}  // namespace routetune
