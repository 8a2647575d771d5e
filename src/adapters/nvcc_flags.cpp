// Applying a route to nvcc's base flags. The base is scanned once: an item naming an option
// that the route sets (long or short name, "=value" attached, or the value as the next item)
// is dropped; an -Xptxas / --ptxas-options item is split at commas and loses the ptxas
// options the route sets ("-O3" counts as -O), and disappears when nothing is left. Then
// the route's knobs are appended, umbrellas first (-use_fast_math before the --ftz,
// --prec-div, --prec-sqrt and --fmad it implies: flag_order.hpp), then the declared knobs.
#include <set>

#include "adapters/flag_order.hpp"
#include "adapters/nvcc_adapter.hpp"
#include "adapters/nvcc_knob_table.hpp"
#include "adapters/declared_knobs.hpp"

namespace routetune {

namespace {

// True when item names spec's option (with its value attached or not); value_follows is
// set when the value is the next argv item.
bool names_option(const NvccKnobSpec& spec, const std::string& item, bool& value_follows) {
    value_follows = false;
    for (const std::string& name : {spec.long_name, spec.short_name}) {
        if (name.empty()) continue;
        if (item == name) {
            value_follows = spec.form == NvccForm::Value;
            return true;
        }
        if (item.size() > name.size() && item.compare(0, name.size(), name) == 0 && item[name.size()] == '=') return true;
    }
    // A one-letter short name takes its value attached: "-O3".
    const std::string& s = spec.short_name;
    return s.size() == 2 && item.size() > 2 && item.compare(0, 2, s) == 0 && spec.form == NvccForm::Value &&
           item.find_first_not_of("0123456789", 2) == std::string::npos;
}

bool routed(const std::vector<const NvccKnobSpec*>& specs, const std::string& item, bool& value_follows) {
    for (const auto* spec : specs) {
        if (names_option(*spec, item, value_follows)) return true;
    }
    return false;
}

// The ptxas options list with the routed ones removed ("" when none is left).
std::string filter_ptxas_list(const std::string& list, const std::vector<const NvccKnobSpec*>& ptxas_specs) {
    std::string kept;
    std::size_t pos = 0;
    while (pos <= list.size()) {
        std::size_t end = list.find(',', pos);
        if (end == std::string::npos) end = list.size();
        std::string item = list.substr(pos, end - pos);
        bool value_follows = false;
        if (!item.empty() && !routed(ptxas_specs, item, value_follows)) kept += (kept.empty() ? "" : ",") + item;
        pos = end + 1;
    }
    return kept;
}

std::vector<std::string> filter_base(const std::vector<std::string>& base, const std::vector<const NvccKnobSpec*>& nvcc_specs,
                                     const std::vector<const NvccKnobSpec*>& ptxas_specs) {
    std::vector<std::string> kept;
    for (std::size_t i = 0; i < base.size(); ++i) {
        const std::string& item = base[i];
        bool separate = item == "-Xptxas" || item == "--ptxas-options";
        std::string attached_prefix;
        if (item.rfind("-Xptxas=", 0) == 0) attached_prefix = "-Xptxas=";
        if (item.rfind("--ptxas-options=", 0) == 0) attached_prefix = "--ptxas-options=";
        if (separate && i + 1 < base.size()) {
            std::string list = filter_ptxas_list(base[i + 1], ptxas_specs);
            ++i;
            if (!list.empty()) {
                kept.push_back(item);
                kept.push_back(list);
            }
            continue;
        }
        if (!attached_prefix.empty()) {
            std::string list = filter_ptxas_list(item.substr(attached_prefix.size()), ptxas_specs);
            if (!list.empty()) kept.push_back(attached_prefix + list);
            continue;
        }
        bool value_follows = false;
        if (routed(nvcc_specs, item, value_follows)) {
            if (value_follows) ++i;
            continue;
        }
        kept.push_back(item);
    }
    return kept;
}

// The argv items of one knob's value ("" items are not produced).
void append_knob(const NvccKnobSpec& spec, const std::string& value, std::vector<std::string>& flags) {
    std::string option;
    switch (spec.form) {
        case NvccForm::Flag:
            if (value != "on") return;
            option = spec.long_name;
            break;
        case NvccForm::TrueFalse: option = spec.long_name + (value == "on" ? "=true" : "=false"); break;
        case NvccForm::Value: option = spec.long_name + "=" + value; break;
    }
    if (spec.ptxas) flags.push_back("-Xptxas");
    flags.push_back(option);
}

}  // namespace

AppliedRoute apply_nvcc_route(const std::vector<std::string>& base, const Route& route, const Catalog& catalog) {
    std::vector<const NvccKnobSpec*> nvcc_specs;
    std::vector<const NvccKnobSpec*> ptxas_specs;
    std::vector<std::pair<const NvccKnobSpec*, std::string>> assignments;
    for (const auto& [name, value] : umbrella_first(route)) {
        const Knob* knob = catalog.find(name);
        if (knob != nullptr && is_declared_knob(*knob)) continue;
        const NvccKnobSpec* spec = find_nvcc_knob_spec(name);
        if (spec == nullptr) continue;
        (spec->ptxas ? ptxas_specs : nvcc_specs).push_back(spec);
        assignments.emplace_back(spec, value);
    }
    AppliedRoute applied;
    applied.flags = filter_base(base, nvcc_specs, ptxas_specs);
    for (const auto& [spec, value] : assignments) append_knob(*spec, value, applied.flags);
    apply_declared_knobs(route, catalog, applied);
    return applied;
}

}  // namespace routetune
