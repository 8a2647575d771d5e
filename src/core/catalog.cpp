// The catalog: knobs kept sorted by name, lookup, nearest names for messages (Levenshtein
// distance on the names, ties broken by name), and the `knobs --json` document.
#include "routetune/catalog.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "routetune/error.hpp"
#include "util/edit_distance.hpp"

namespace routetune {

namespace {

bool by_name(const Knob& knob, std::string_view name) { return knob.name < name; }

nlohmann::json knob_to_json(const Knob& knob) {
    nlohmann::json j;
    j["name"] = knob.name;
    j["type"] = std::string(to_string(knob.type));
    if (knob.type == KnobType::Int) {
        if (knob.bounded) {
            j["min"] = knob.min;
            j["max"] = knob.max;
        }
    } else {
        j["values"] = knob.values;
    }
    j["bounded"] = knob.bounded;
    j["default"] = knob.default_value.empty() ? nlohmann::json(nullptr) : nlohmann::json(knob.default_value);
    j["help"] = knob.help;
    j["tags"] = knob.tags;
    if (!knob.application.argv_template.empty()) j["argv"] = knob.application.argv_template;
    if (!knob.application.env_name.empty()) j["env"] = knob.application.env_name;
    for (const auto& entry : knob.left_out) j["left_out"].push_back({{"value", entry.value}, {"reason", entry.reason}});
    return j;
}

Knob knob_from_json(const nlohmann::json& j) {
    Knob knob;
    knob.name = j.at("name").get<std::string>();
    knob.type = knob_type_from_string(j.at("type").get<std::string>());
    knob.bounded = j.value("bounded", true);
    if (knob.type == KnobType::Int) {
        if (j.contains("min")) knob.min = j.at("min").get<std::int64_t>();
        if (j.contains("max")) knob.max = j.at("max").get<std::int64_t>();
    } else if (j.contains("values")) {
        knob.values = j.at("values").get<std::vector<std::string>>();
    }
    if (j.contains("default") && j.at("default").is_string()) knob.default_value = j.at("default").get<std::string>();
    knob.help = j.value("help", "");
    knob.tags = j.value("tags", std::vector<std::string>{});
    knob.application.argv_template = j.value("argv", "");
    knob.application.env_name = j.value("env", "");
    for (const auto& entry : j.value("left_out", nlohmann::json::array()))
        knob.left_out.push_back({entry.at("value").get<std::string>(), entry.value("reason", "")});
    return knob;
}

}  // namespace

void Catalog::add(Knob knob) {
    auto it = std::lower_bound(knobs_.begin(), knobs_.end(), knob.name, by_name);
    if (it != knobs_.end() && it->name == knob.name) {
        *it = std::move(knob);
    } else {
        knobs_.insert(it, std::move(knob));
    }
}

const Knob* Catalog::find(std::string_view name) const {
    auto it = std::lower_bound(knobs_.begin(), knobs_.end(), name, by_name);
    return it != knobs_.end() && it->name == name ? &*it : nullptr;
}

std::vector<std::string> Catalog::closest_names(std::string_view name, std::size_t count) const {
    std::vector<std::pair<std::size_t, const std::string*>> scored;
    scored.reserve(knobs_.size());
    for (const auto& knob : knobs_) scored.emplace_back(edit_distance(name, knob.name), &knob.name);
    std::size_t keep = std::min(count, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end(),
                      [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : *a.second < *b.second; });
    std::vector<std::string> names;
    for (std::size_t i = 0; i < keep; ++i) names.push_back(*scored[i].second);
    return names;
}

std::string catalog_to_json(const Catalog& catalog, int indent) {
    nlohmann::json doc;
    doc["compiler"] = {{"adapter", catalog.compiler.adapter},
                       {"path", catalog.compiler.path},
                       {"version", catalog.compiler.version},
                       {"sha256", catalog.compiler.binary_sha256}};
    doc["knobs"] = nlohmann::json::array();
    for (const auto& knob : catalog.knobs()) doc["knobs"].push_back(knob_to_json(knob));
    return doc.dump(indent);
}

Catalog catalog_from_json(std::string_view text) {
    try {
        auto doc = nlohmann::json::parse(text);
        Catalog catalog;
        const auto& compiler = doc.at("compiler");
        catalog.compiler.adapter = compiler.value("adapter", "");
        catalog.compiler.path = compiler.value("path", "");
        catalog.compiler.version = compiler.value("version", "");
        catalog.compiler.binary_sha256 = compiler.value("sha256", "");
        for (const auto& knob : doc.at("knobs")) catalog.add(knob_from_json(knob));
        return catalog;
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(std::string("malformed catalog JSON: ") + e.what());
    }
}

}  // namespace routetune
