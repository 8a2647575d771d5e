// The summary groups by knob, since -march alone may lose dozens of values and the ISA
// switches each lose "on": a knob with one left-out value is written KNOB=VALUE, one with
// several KNOB=[a|b|c|...] (the first few) with their number; past a dozen knobs the rest
// are counted, not named. The details list every value with the reason its adapter gave.
#include "report/left_out_note.hpp"

#include <cstddef>
#include <cstdint>

#include "util/text.hpp"

namespace routetune {

namespace {

constexpr std::size_t kNamedValues = 4;
constexpr std::size_t kNamedKnobs = 12;
constexpr std::uint64_t kMaxCheckedValues = 4096;  // an int range never holds left-out values

const char* const how_to_keep = "[compiler] host_isa_only = false keeps them";

std::string one_knob(const std::string& knob, const std::vector<std::string>& values) {
    if (values.size() == 1) return knob + "=" + values.front();
    std::string text = knob + "=[";
    for (std::size_t i = 0; i < values.size() && i < kNamedValues; ++i) text += (i == 0 ? "" : "|") + values[i];
    if (values.size() > kNamedValues) text += "|...";
    return text + "] (" + std::to_string(values.size()) + " values)";
}

}  // namespace

std::vector<LeftOutAxisValue> left_out_values(const Catalog& catalog) {
    std::vector<LeftOutAxisValue> values;
    for (const auto& knob : catalog.knobs()) {
        for (const auto& entry : knob.left_out) values.push_back({knob.name, entry.value, entry.reason});
    }
    return values;
}

std::string left_out_summary(const std::vector<LeftOutAxisValue>& left_out) {
    if (left_out.empty()) return {};
    std::vector<std::pair<std::string, std::vector<std::string>>> by_knob;
    for (const auto& entry : left_out) {
        if (by_knob.empty() || by_knob.back().first != entry.knob) by_knob.push_back({entry.knob, {}});
        by_knob.back().second.push_back(entry.value);
    }
    std::string text = "`~` left out " + std::to_string(left_out.size()) + " value" + (left_out.size() == 1 ? "" : "s") +
                       " that this machine's CPU cannot run: ";
    for (std::size_t i = 0; i < by_knob.size() && i < kNamedKnobs; ++i) {
        text += (i == 0 ? "" : ", ") + one_knob(by_knob[i].first, by_knob[i].second);
    }
    if (by_knob.size() > kNamedKnobs) text += " and " + std::to_string(by_knob.size() - kNamedKnobs) + " more knobs";
    return text + " (`routetune knobs` says why; " + how_to_keep + ")";
}

std::string explicit_left_out_warnings(const Expression& expression, const Catalog& catalog) {
    std::string text;
    for (const auto& axis : expression.axes) {
        const Knob* knob = catalog.find(axis.knob);
        if (knob == nullptr || knob->left_out.empty() || axis.values.size() > kMaxCheckedValues) continue;
        for (std::uint64_t i = 0; i < axis.values.size(); ++i) {
            std::string value = axis.values.at(i);
            if (const LeftOutValue* entry = knob->left_out_reason(value)) {
                text += "warning: " + axis.knob + "=" + value + " is written explicitly, so it is tried, though `~` would " +
                        "leave it out: " + entry->reason + "\n";
            }
        }
    }
    return text;
}

void write_left_out_notes(std::ostream& out, const Expression& expression, const Catalog& catalog) {
    if (std::string note = left_out_summary(expression.left_out); !note.empty()) out << "routetune: note: " << note << "\n";
    std::string warnings = explicit_left_out_warnings(expression, catalog);  // split_lines views into it
    for (const auto& line : split_lines(warnings)) out << "routetune: " << line << "\n";
}

std::string left_out_details(const std::vector<LeftOutAxisValue>& left_out) {
    if (left_out.empty()) return {};
    std::string text = "left out of `~` (" + std::to_string(left_out.size()) +
                       " values: this machine's CPU cannot run code built with them; " + how_to_keep +
                       "; written explicitly they are still tried):\n";
    for (const auto& entry : left_out) text += "  " + entry.knob + "=" + entry.value + ": " + entry.reason + "\n";
    return text;
}

}  // namespace routetune
