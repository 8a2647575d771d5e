// Numbers are written as text: integers in decimal, the wall time with 17 significant digits
// (a double read back is the same double); the values `~` left out as a JSON array of
// {knob, value, reason}. A note that does not parse is ignored.
#include "study/study_notes.hpp"

#include <charconv>
#include <cstdio>

#include <nlohmann/json.hpp>

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

}  // namespace

void record_study_notes(StudyStore& store, const StudySummary& summary, std::string_view metric) {
    char wall[64];
    std::snprintf(wall, sizeof wall, "%.17g", summary.wall_s);
    store.write_note("metric", std::string(metric));
    store.write_note("candidates_total", std::to_string(summary.candidates_total));
    store.write_note("artifact_bytes", std::to_string(summary.artifact_bytes));
    store.write_note("binary_bytes", std::to_string(summary.binary_bytes));
    store.write_note("output_bytes", std::to_string(summary.output_bytes));
    store.write_note("wall_s", wall);
    store.write_note("left_out", left_out_note(summary.left_out));
}

std::string apply_study_notes(const StudyStore& store, StudySummary& summary) {
    read_number(store, "candidates_total", summary.candidates_total);
    read_number(store, "artifact_bytes", summary.artifact_bytes);
    read_number(store, "binary_bytes", summary.binary_bytes);
    read_number(store, "output_bytes", summary.output_bytes);
    read_number(store, "wall_s", summary.wall_s);
    read_left_out(store, summary.left_out);
    return store.read_note("metric").value_or("");
}

std::string load_study_metric(const StoreLocation& cache) {
    return StudyStore::open_read_only(cache)->read_note("metric").value_or("");
}

}  // namespace routetune
