// Writes a StudySummary field by field into an insertion-ordered JSON object (so the output
// reads in the design's order), and reads it back with checks that name the offending key.
// A timing is written as its median ("time") and 95% interval ("time_ci95"), or null for both
// when it holds no measurement. Each evaluation also carries its search-phase speedup against
// the default (null without timing), whether the confirmation re-measured it ("confirmed"), and
// "same_as" when a byte-identical twin answered it. Counts cover every status, zeros included, plus "total".
#include "report/summary_json.hpp"

#include "report/case_classes.hpp"
#include "report/measurement_json.hpp"

#include <cmath>
#include <limits>

#include "report/report_row.hpp"
#include "report/route_changes.hpp"
#include "util/statistics.hpp"
#include "routetune/error.hpp"
#include "util/output_schema.hpp"

namespace routetune {

using Json = nlohmann::ordered_json;

namespace {

Json number(double value) {
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

const char* nonfinite_name(double loss) {
    if (std::isnan(loss)) return "nan";
    return loss > 0 ? "inf" : "-inf";
}

constexpr const char* kLossNote =
    "a loss is null when it was not a finite number (NaN or infinite, which always fails the "
    "accuracy check); the evaluation's loss_nonfinite names which: nan, inf or -inf";

constexpr const char* kRouteChangesNote =
    "route_changes: the knobs in which a route differs from the default route, knob: value (null: left unset where "
    "the default route assigns it); a knob whose default is not in knob_defaults (each knob's value at the base "
    "flags, where known) always counts as a change";

Json pair(double low, double high) {
    return Json::array({number(low), number(high)});
}

void put_timing(Json& out, const TimingSummary& timing, const char* time_key, const char* ci_key) {
    if (has_timing(timing)) {
        out[time_key] = number(timing.median_s);
        out[ci_key] = pair(timing.ci_low_s, timing.ci_high_s);
    } else {
        out[time_key] = nullptr;
        out[ci_key] = nullptr;
    }
}

Json seconds_list(const std::vector<double>& values) {
    Json list = Json::array();
    for (double value : values) list.push_back(number(value));
    return list;
}

// speedup and speedup_ci95: against the default, search phase (report_row's speedup_vs_default:
// from rounds paired with the default's when measured so); speedup_paired: whether it is; the
// paired rounds it comes from (absent when unpaired), so the figure can be checked and read back;
// confirmed: re-measured in the confirmation; same_as only when it was answered by a twin.
void put_speedup(Json& out, const Evaluation& evaluation, const StudySummary& summary) {
    std::optional<SpeedupFigure> speedup = speedup_vs_default(evaluation, summary);
    out["speedup"] = speedup ? number(speedup->value) : Json(nullptr);
    out["speedup_ci95"] = speedup && speedup->ci95 ? pair(speedup->ci95->first, speedup->ci95->second) : Json(nullptr);
    out["speedup_paired"] = speedup && speedup->paired;
    if (evaluation.paired.has_pairs())
        out["paired_rounds_s"] = {{"default", seconds_list(evaluation.paired.default_s)},
                                  {"candidate", seconds_list(evaluation.paired.candidate_s)}};
    out["confirmed"] = confirmation_of(summary, evaluation.route) != nullptr;
    if (!evaluation.same_as.empty()) out["same_as"] = evaluation.same_as;
}

// route_changes: {knob: value} for each knob in which route differs from the default route
// (route_changes), null for a knob the route leaves unset that the default route assigns.
Json changes_json(const Route& route, const DefaultRoute& base) {
    Json out = Json::object();
    for (const auto& change : route_changes(route, base)) out[change.knob] = change.value ? Json(*change.value) : Json(nullptr);
    return out;
}

Json evaluation_json(const Evaluation& evaluation, const StudySummary& summary, const DefaultRoute& base) {
    Json out;
    out["route"] = evaluation.route.to_string();
    out["route_changes"] = changes_json(evaluation.route, base);
    out["phase"] = evaluation.phase;
    out["status"] = std::string(to_string(evaluation.status));
    put_timing(out, evaluation.timing, "time", "time_ci95");
    put_speedup(out, evaluation, summary);
    out["build_s"] = number(evaluation.build_s);
    Json loss = Json::object();
    Json nonfinite = Json::object();
    for (const auto& c : evaluation.cases) {
        loss[c.name] = number(c.loss);
        if (!std::isfinite(c.loss)) nonfinite[c.name] = nonfinite_name(c.loss);
    }
    out["loss"] = std::move(loss);
    if (!nonfinite.empty()) out["loss_nonfinite"] = std::move(nonfinite);
    out["message"] = evaluation.message;
    return out;
}

Json confirmation_json(const Confirmation& confirmation) {
    Json out;
    out["route"] = confirmation.route.to_string();
    out["speedup"] = number(confirmation.speedup);
    out["speedup_ci95"] = pair(confirmation.ci_low, confirmation.ci_high);
    put_timing(out, confirmation.timing, "time", "time_ci95");
    put_timing(out, confirmation.default_timing, "default_time", "default_time_ci95");
    if (!confirmation.build_medians_s.empty()) {
        out["build_medians_s"] = confirmation.build_medians_s;
        out["build_spread"] = relative_spread(confirmation.build_medians_s);
    }
    return out;
}

[[noreturn]] void bad(const std::string& where, const std::string& what) {
    throw UsageError("study summary JSON: " + where + ": " + what);
}

const Json& member(const Json& object, const char* key, const std::string& where) {
    if (!object.is_object()) bad(where, "expected an object");
    auto it = object.find(key);
    if (it == object.end()) bad(where, std::string("missing key \"") + key + "\"");
    return *it;
}

std::string text_at(const Json& object, const char* key, const std::string& where) {
    const Json& value = member(object, key, where);
    if (!value.is_string()) bad(where + "." + key, "expected a string");
    return value.get<std::string>();
}

double number_at(const Json& value, const std::string& where) {
    if (value.is_null()) return std::numeric_limits<double>::quiet_NaN();
    if (!value.is_number()) bad(where, "expected a number or null");
    return value.get<double>();
}

double number_at(const Json& object, const char* key, const std::string& where) {
    return number_at(member(object, key, where), where + "." + key);
}

void read_pair(const Json& value, double& low, double& high, const std::string& where) {
    if (!value.is_array() || value.size() != 2) bad(where, "expected [low, high]");
    low = number_at(value[0], where + "[0]");
    high = number_at(value[1], where + "[1]");
}

TimingSummary read_timing(const Json& object, const char* time_key, const char* ci_key,
                          const std::string& where) {
    TimingSummary timing;
    const Json& time = member(object, time_key, where);
    if (time.is_null()) return timing;
    timing.median_s = number_at(time, where + "." + time_key);
    read_pair(member(object, ci_key, where), timing.ci_low_s, timing.ci_high_s,
              where + "." + ci_key);
    return timing;
}

// Every member of object, each a string (else bad() names where.key).
std::map<std::string, std::string> read_text_map(const Json& object, const std::string& where) {
    std::map<std::string, std::string> values;
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!it.value().is_string()) bad(where + "." + it.key(), "expected a string");
        values[it.key()] = it.value().get<std::string>();
    }
    return values;
}

Route read_route(const Json& object, const std::string& where) {
    return Route::parse(text_at(object, "route", where));
}

Status read_status(const Json& object, const std::string& where) {
    std::string name = text_at(object, "status", where);
    auto status = status_from_string(name);
    if (!status) {
        bad(where + ".status", "unknown status \"" + name + "\" (valid: " + status_names_text() + ")");
    }
    return *status;
}

// A loss: a number, or null with loss_nonfinite naming nan/inf/-inf (older summaries wrote
// the strings "NaN", "Infinity" and "-Infinity" instead; they are read too).
double read_loss(const Json& value, const Json* nonfinite, const std::string& where) {
    std::string text = value.is_string() ? value.get<std::string>() : "";
    if (value.is_null() && nonfinite && nonfinite->is_string()) text = nonfinite->get<std::string>();
    if (text == "NaN" || text == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (text == "Infinity" || text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-Infinity" || text == "-inf") return -std::numeric_limits<double>::infinity();
    if (value.is_string()) bad(where, "expected a number or null");
    return number_at(value, where);
}

std::vector<double> read_seconds(const Json& value, const std::string& where) {
    if (!value.is_array()) bad(where, "expected an array of seconds");
    std::vector<double> seconds;
    for (std::size_t i = 0; i < value.size(); ++i) seconds.push_back(number_at(value[i], where + "[" + std::to_string(i) + "]"));
    return seconds;
}

Evaluation read_evaluation(const Json& object, const std::string& where) {
    Evaluation evaluation;
    evaluation.route = read_route(object, where);
    evaluation.phase = text_at(object, "phase", where);
    evaluation.status = read_status(object, where);
    evaluation.timing = read_timing(object, "time", "time_ci95", where);
    evaluation.build_s = number_at(object, "build_s", where);
    const Json& loss = member(object, "loss", where);
    if (!loss.is_object()) bad(where + ".loss", "expected an object of case: loss");
    const Json* nonfinite = object.contains("loss_nonfinite") ? &object.at("loss_nonfinite") : nullptr;
    for (auto it = loss.begin(); it != loss.end(); ++it) {
        CaseResult c;
        c.name = it.key();
        const Json* which = nonfinite && nonfinite->is_object() && nonfinite->contains(it.key()) ? &nonfinite->at(it.key()) : nullptr;
        c.loss = read_loss(it.value(), which, where + ".loss." + it.key());
        evaluation.cases.push_back(std::move(c));
    }
    evaluation.message = text_at(object, "message", where);
    if (object.contains("same_as")) evaluation.same_as = text_at(object, "same_as", where);
    if (auto rounds = object.find("paired_rounds_s"); rounds != object.end()) {
        evaluation.paired.default_s = read_seconds(member(*rounds, "default", where), where + ".paired_rounds_s.default");
        evaluation.paired.candidate_s =
            read_seconds(member(*rounds, "candidate", where), where + ".paired_rounds_s.candidate");
    }
    return evaluation;
}

Confirmation read_confirmation(const Json& object, const std::string& where) {
    Confirmation confirmation;
    confirmation.route = read_route(object, where);
    confirmation.speedup = number_at(object, "speedup", where);
    read_pair(member(object, "speedup_ci95", where), confirmation.ci_low, confirmation.ci_high,
              where + ".speedup_ci95");
    confirmation.timing = read_timing(object, "time", "time_ci95", where);
    confirmation.default_timing = read_timing(object, "default_time", "default_time_ci95", where);
    if (auto medians = object.find("build_medians_s"); medians != object.end() && medians->is_array())
        confirmation.build_medians_s = medians->get<std::vector<double>>();
    return confirmation;
}

std::uint64_t count_at(const Json& object, const char* key) {
    const Json& value = member(object, key, "summary");
    if (!value.is_number_unsigned() && !(value.is_number_integer() && value.get<std::int64_t>() >= 0)) {
        bad(std::string("summary.") + key, "expected a non-negative integer");
    }
    return value.get<std::uint64_t>();
}

}  // namespace

Json summary_to_json(const StudySummary& summary, std::string_view metric) {
    Json out;
    out["study"] = summary.study;
    out["spec"] = summary.spec_path;
    out["search"] = summary.search;
    out["expression"] = summary.expression;
    out["metric"] = std::string(metric);
    Json fingerprint = Json::object();
    for (const auto& [key, value] : summary.fingerprint) fingerprint[key] = value;
    out["fingerprint"] = std::move(fingerprint);
    if (summary.default_evaluation) {
        const Evaluation& d = *summary.default_evaluation;
        Json def;
        def["route"] = d.route.to_string();
        def["status"] = std::string(to_string(d.status));
        put_timing(def, d.timing, "time", "time_ci95");
        out["default"] = std::move(def);
    } else {
        out["default"] = nullptr;
    }
    DefaultRoute base = default_route_of(summary);
    if (summary.winner) {
        Json winner;
        winner["route"] = summary.winner->route.to_string();
        winner["route_changes"] = changes_json(summary.winner->route, base);
        winner["speedup"] = number(summary.winner->speedup);
        winner["speedup_ci95"] = pair(summary.winner->ci_low, summary.winner->ci_high);
        winner["artifact"] = summary.winner_artifact;
        out["winner"] = std::move(winner);
    } else {
        out["winner"] = nullptr;
    }
    if (summary.minimal) {
        Json minimal;
        minimal["route"] = summary.minimal->route.to_string();
        minimal["changes"] = static_cast<std::uint64_t>(summary.minimal->route.assignments().size());
        minimal["speedup"] = number(summary.minimal->speedup);
        minimal["speedup_ci95"] = pair(summary.minimal->ci_low, summary.minimal->ci_high);
        out["minimal"] = std::move(minimal);
    } else {
        out["minimal"] = nullptr;
    }
    out["outcome"] = std::string(to_string(summary.outcome));
    out["message"] = summary.message;
    Json counts;
    for (const auto& [status, n] : status_counts(summary)) counts[std::string(to_string(status))] = n;
    counts["total"] = static_cast<std::uint64_t>(summary.evaluations.size());
    out["counts"] = std::move(counts);
    Json classes = Json::array();
    for (const auto& c : results_by_class(summary)) {
        classes.push_back({{"class", c.case_class}, {"cases", c.cases}, {"promotion_only", c.promotion_only},
                           {"passed", c.passed}, {"failed", c.failed}});
    }
    out["classes"] = std::move(classes);
    Json evaluations = Json::array();
    for (const auto& e : summary.evaluations) evaluations.push_back(evaluation_json(e, summary, base));
    out["evaluations"] = std::move(evaluations);
    Json confirmations = Json::array();
    for (const auto& c : summary.confirmations) confirmations.push_back(confirmation_json(c));
    out["confirmations"] = std::move(confirmations);
    out["artifact_bytes"] = summary.artifact_bytes;
    out["binary_bytes"] = summary.binary_bytes;
    out["output_bytes"] = summary.output_bytes;
    out["wall_s"] = number(summary.wall_s);
    out["candidates_total"] = summary.candidates_total;
    put_measurement_json(out, summary);
    if (!summary.left_out.empty()) {
        Json left_out = Json::array();
        for (const auto& entry : summary.left_out)
            left_out.push_back({{"knob", entry.knob}, {"value", entry.value}, {"reason", entry.reason}});
        out["left_out"] = std::move(left_out);
    }
    Json knob_defaults = Json::object();
    for (const auto& [knob, value] : summary.knob_defaults) knob_defaults[knob] = value;
    out["knob_defaults"] = std::move(knob_defaults);
    out["notes"] = Json::array({kLossNote, kRouteChangesNote});
    return out;
}

std::string summary_json_text(const StudySummary& summary, std::string_view metric, int indent) {
    return versioned_json_text(summary_to_json(summary, metric), indent);
}

StudySummary summary_from_json(const Json& json) {
    const std::string where = "summary";
    StudySummary summary;
    summary.study = text_at(json, "study", where);
    if (json.contains("spec")) summary.spec_path = text_at(json, "spec", where);
    summary.search = text_at(json, "search", where);
    summary.expression = text_at(json, "expression", where);
    const Json& fingerprint = member(json, "fingerprint", where);
    if (!fingerprint.is_object()) bad("summary.fingerprint", "expected an object");
    summary.fingerprint = read_text_map(fingerprint, "summary.fingerprint");
    std::string outcome = text_at(json, "outcome", where);
    auto parsed = outcome_from_string(outcome);
    if (!parsed) {
        bad("summary.outcome", "unknown outcome \"" + outcome +
            "\" (valid: improved, default-stays, no-eligible-route, unfinished)");
    }
    summary.outcome = *parsed;
    const Json& evaluations = member(json, "evaluations", where);
    if (!evaluations.is_array()) bad("summary.evaluations", "expected an array");
    for (std::size_t i = 0; i < evaluations.size(); ++i) {
        summary.evaluations.push_back(
            read_evaluation(evaluations[i], "summary.evaluations[" + std::to_string(i) + "]"));
    }
    const Json& confirmations = member(json, "confirmations", where);
    if (!confirmations.is_array()) bad("summary.confirmations", "expected an array");
    for (std::size_t i = 0; i < confirmations.size(); ++i) {
        summary.confirmations.push_back(
            read_confirmation(confirmations[i], "summary.confirmations[" + std::to_string(i) + "]"));
    }
    const Json& def = member(json, "default", where);
    if (!def.is_null()) {
        Route route = read_route(def, "summary.default");
        for (const auto& e : summary.evaluations) {
            if (e.route == route) summary.default_evaluation = e;
        }
        if (!summary.default_evaluation) summary.default_evaluation = Evaluation{};
        summary.default_evaluation->route = route;
        summary.default_evaluation->status = read_status(def, "summary.default");
        summary.default_evaluation->timing =
            read_timing(def, "time", "time_ci95", "summary.default");
    }
    const Json& winner = member(json, "winner", where);
    if (!winner.is_null()) {
        Confirmation confirmation;
        confirmation.route = read_route(winner, "summary.winner");
        for (const auto& c : summary.confirmations) {
            if (c.route == confirmation.route) confirmation = c;
        }
        confirmation.speedup = number_at(winner, "speedup", "summary.winner");
        read_pair(member(winner, "speedup_ci95", "summary.winner"), confirmation.ci_low,
                  confirmation.ci_high, "summary.winner.speedup_ci95");
        summary.winner = confirmation;
        summary.winner_artifact = text_at(winner, "artifact", "summary.winner");
    }
    auto minimal = json.find("minimal");
    if (minimal != json.end() && !minimal->is_null()) {
        Confirmation confirmation;
        confirmation.route = read_route(*minimal, "summary.minimal");
        confirmation.speedup = number_at(*minimal, "speedup", "summary.minimal");
        read_pair(member(*minimal, "speedup_ci95", "summary.minimal"), confirmation.ci_low, confirmation.ci_high,
                  "summary.minimal.speedup_ci95");
        summary.minimal = confirmation;
    }
    summary.artifact_bytes = count_at(json, "artifact_bytes");
    if (json.contains("binary_bytes")) summary.binary_bytes = count_at(json, "binary_bytes");  // absent before the split
    if (json.contains("output_bytes")) summary.output_bytes = count_at(json, "output_bytes");
    summary.wall_s = number_at(json, "wall_s", where);
    summary.candidates_total = count_at(json, "candidates_total");
    if (json.contains("message") && json.at("message").is_string()) summary.message = json.at("message").get<std::string>();
    read_measurement_json(json, summary);
    if (auto left_out = json.find("left_out"); left_out != json.end() && left_out->is_array()) {
        for (const auto& entry : *left_out)
            summary.left_out.push_back({text_at(entry, "knob", "summary.left_out"), text_at(entry, "value", "summary.left_out"),
                                        text_at(entry, "reason", "summary.left_out")});
    }
    if (auto defaults = json.find("knob_defaults"); defaults != json.end() && defaults->is_object())
        summary.knob_defaults = read_text_map(*defaults, "summary.knob_defaults");
    return summary;
}

StudySummary summary_from_json_text(std::string_view text) {
    Json json = Json::parse(text.begin(), text.end(), nullptr, false);
    if (json.is_discarded()) throw UsageError("study summary JSON: not valid JSON");
    return summary_from_json(json);
}

std::string summary_metric(const Json& json) {
    auto it = json.find("metric");
    return (it != json.end() && it->is_string()) ? it->get<std::string>() : std::string();
}

}  // namespace routetune
