// Numbers are written as text: integers in decimal, the wall time with 17 significant digits
// (a double read back is the same double). A note that does not parse is ignored.
#include "study/study_notes.hpp"

#include <charconv>
#include <cstdio>

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
}

std::string apply_study_notes(const StudyStore& store, StudySummary& summary) {
    read_number(store, "candidates_total", summary.candidates_total);
    read_number(store, "artifact_bytes", summary.artifact_bytes);
    read_number(store, "binary_bytes", summary.binary_bytes);
    read_number(store, "output_bytes", summary.output_bytes);
    read_number(store, "wall_s", summary.wall_s);
    return store.read_note("metric").value_or("");
}

std::string load_study_metric(const StoreLocation& cache) {
    return StudyStore::open_read_only(cache)->read_note("metric").value_or("");
}

}  // namespace routetune
