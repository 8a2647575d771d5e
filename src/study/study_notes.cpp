// Numbers are written as text: integers in decimal, times with 17 significant digits (a
// double read back is the same double); the values `~` left out as a JSON array of {knob,
// value, reason}; the warm processes and code identities as JSON arrays of their fields; the
// confirmation's builds as {"default": [median...], "routes": {route: [median...]}}; the knob
// defaults as {knob: value}. A note that does not parse is ignored.
#include "study/study_notes.hpp"

#include <charconv>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "study/warm_evidence_json.hpp"

namespace routetune {

namespace {

template <typename Number>
void read_number(const StudyStore& store, const char* key, Number& into) {
    auto text = store.read_note(key);
    if (!text) return;
    Number value{};
    auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error == std::errc() && end == text->data() + text->size()) into = value;
}

void read_left_out(const StudyStore& store, std::vector<LeftOutAxisValue>& into) {
    auto text = store.read_note("left_out");
    if (!text) return;
    auto list = nlohmann::json::parse(*text, nullptr, false);
    if (!list.is_array()) return;
    std::vector<LeftOutAxisValue> values;
    for (const auto& entry : list) {
        if (!entry.is_object() || !entry.contains("knob") || !entry.contains("value") || !entry.contains("reason")) return;
        if (!entry["knob"].is_string() || !entry["value"].is_string() || !entry["reason"].is_string()) return;
        values.push_back({entry["knob"], entry["value"], entry["reason"]});
    }
    into = std::move(values);
}

std::string left_out_note(const std::vector<LeftOutAxisValue>& left_out) {
    auto list = nlohmann::json::array();
    for (const auto& entry : left_out) list.push_back({{"knob", entry.knob}, {"value", entry.value}, {"reason", entry.reason}});
    return list.dump();
}

std::string exact(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// A note that does not parse, or an entry of the wrong shape, leaves the summary as it was.
template <typename Read>
void read_list(const StudyStore& store, const char* key, Read read) {
    auto text = store.read_note(key);
    if (!text) return;
    auto list = nlohmann::json::parse(*text, nullptr, false);
    if (!list.is_array() && !list.is_object()) return;
    try {
        read(list);
    } catch (const nlohmann::json::exception&) {
    }
}

void read_knob_defaults(const StudyStore& store, StudySummary& summary) {
    read_list(store, "knob_defaults", [&](const nlohmann::json& note) {
        summary.knob_defaults = note.get<std::map<std::string, std::string>>();
    });
}

void read_time_notes(const StudyStore& store, StudySummary& summary) {
    read_number(store, "time_limit_s", summary.time_limit_s);
    read_number(store, "confirmation_reserve_s", summary.confirmation_reserve_s);
    read_number(store, "confirmation_s", summary.confirmation_s);
    read_number(store, "confirmation_deadline_s", summary.confirmation_deadline_s);
    read_list(store, "warm_processes",
              [&](const nlohmann::json& list) { summary.warm_processes = warm_processes_from_json(list); });
    read_list(store, "code_identities",
              [&](const nlohmann::json& list) { summary.code_identities = code_identities_from_json(list); });
    read_list(store, "confirmation_builds", [&](const nlohmann::json& note) {
        summary.default_build_medians_s = note.at("default").get<std::vector<double>>();
        for (auto& c : summary.confirmations) {
            auto found = note.at("routes").find(c.route.to_string());
            if (found != note.at("routes").end()) c.build_medians_s = found->get<std::vector<double>>();
        }
    });
}

}  // namespace

std::map<std::string, std::string> knob_defaults_of(const Expression& expression) {
    std::map<std::string, std::string> defaults;
    for (const auto& axis : expression.axes)
        if (!axis.default_value.empty()) defaults[axis.knob] = axis.default_value;
    return defaults;
}

void record_knob_defaults(StudyStore& store, const std::map<std::string, std::string>& knob_defaults) {
    store.write_note("knob_defaults", nlohmann::json(knob_defaults).dump());
}

void record_confirmation_builds(StudyStore& store, const StudyConfirmation& confirmation) {
    nlohmann::json routes = nlohmann::json::object();
    bool any = confirmation.baseline && !confirmation.baseline->build_medians_s.empty();
    for (const auto& c : confirmation.candidates) {
        routes[c.route.to_string()] = c.build_medians_s;
        any = any || !c.build_medians_s.empty();
    }
    if (!any) return;
    std::vector<double> default_medians = confirmation.baseline ? confirmation.baseline->build_medians_s : std::vector<double>{};
    store.write_note("confirmation_builds", nlohmann::json{{"default", default_medians}, {"routes", routes}}.dump());
}

void record_study_notes(StudyStore& store, const StudySummary& summary, std::string_view metric) {
    std::string wall = exact(summary.wall_s);
    store.write_note("metric", std::string(metric));
    store.write_note("candidates_total", std::to_string(summary.candidates_total));
    store.write_note("artifact_bytes", std::to_string(summary.artifact_bytes));
    store.write_note("binary_bytes", std::to_string(summary.binary_bytes));
    store.write_note("output_bytes", std::to_string(summary.output_bytes));
    store.write_note("wall_s", wall);
    store.write_note("left_out", left_out_note(summary.left_out));
    record_knob_defaults(store, summary.knob_defaults);
    store.write_note("time_limit_s", exact(summary.time_limit_s));
    store.write_note("confirmation_reserve_s", exact(summary.confirmation_reserve_s));
    if (summary.confirmation_s > 0) store.write_note("confirmation_s", exact(summary.confirmation_s));
    if (summary.confirmation_deadline_s > 0)
        store.write_note("confirmation_deadline_s", exact(summary.confirmation_deadline_s));
    if (!summary.warm_processes.empty()) store.write_note("warm_processes", warm_processes_json(summary.warm_processes).dump());
    if (!summary.code_identities.empty()) store.write_note("code_identities", code_identities_json(summary.code_identities).dump());
}

std::string apply_study_notes(const StudyStore& store, StudySummary& summary) {
    read_number(store, "candidates_total", summary.candidates_total);
    read_number(store, "artifact_bytes", summary.artifact_bytes);
    read_number(store, "binary_bytes", summary.binary_bytes);
    read_number(store, "output_bytes", summary.output_bytes);
    read_number(store, "wall_s", summary.wall_s);
    read_left_out(store, summary.left_out);
    read_knob_defaults(store, summary);
    read_time_notes(store, summary);
    return store.read_note("metric").value_or("");
}

std::string load_study_metric(const StoreLocation& cache) {
    return StudyStore::open_read_only(cache)->read_note("metric").value_or("");
}

}  // namespace routetune
