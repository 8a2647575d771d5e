// Parsing the Inductor config dump (nlohmann JSON): each entry becomes a knob named
// "-inductor:<dotted.name>"; values are rendered as route text (bools as on|off, numbers as
// JSON prints them, strings as they are).
#include "adapters/inductor_config_parser.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "routetune/error.hpp"

namespace routetune {

namespace {

constexpr std::string_view dump_format = "routetune-inductor-config-1";

std::string value_text(const nlohmann::json& value) {
    if (value.is_null()) return "";
    if (value.is_boolean()) return value.get<bool>() ? "on" : "off";
    if (value.is_string()) return value.get<std::string>();
    return value.dump();
}

std::optional<Knob> knob_from_entry(const nlohmann::json& entry) {
    Knob knob;
    std::string name = entry.at("name").get<std::string>();
    knob.name = std::string(inductor_knob_prefix) + name;
    if (!is_valid_knob_name(knob.name)) return std::nullopt;
    std::string type = entry.at("type").get<std::string>();
    const nlohmann::json def = entry.contains("default") ? entry.at("default") : nlohmann::json();
    knob.default_value = value_text(def);
    knob.help = "torch._inductor.config." + name;
    knob.tags.push_back("inductor");
    if (entry.contains("tags")) {
        for (const auto& tag : entry.at("tags")) knob.tags.push_back(tag.get<std::string>());
    }
    if (type == "bool") {
        knob.type = KnobType::Bool;
        knob.values = {"on", "off"};
    } else if (type == "int") {
        knob.type = KnobType::Int;
        knob.bounded = false;
    } else if (type == "float") {
        knob.type = KnobType::Enum;
        knob.bounded = false;
        if (!knob.default_value.empty()) knob.values.push_back(knob.default_value);
        knob.tags.push_back("float");
    } else if (type == "str" && entry.contains("values") && !entry.at("values").empty()) {
        knob.type = KnobType::Enum;
        for (const auto& value : entry.at("values")) knob.values.push_back(value_text(value));
        bool listed = std::find(knob.values.begin(), knob.values.end(), knob.default_value) != knob.values.end();
        if (!knob.default_value.empty() && !listed) knob.values.push_back(knob.default_value);
    } else {
        return std::nullopt;
    }
    for (const auto& value : knob.values) {
        if (value.empty() || value.find_first_of(" \t\r\n|[]") != std::string::npos) return std::nullopt;
    }
    return knob;
}

}  // namespace

InductorConfig parse_inductor_config_dump(std::string_view text) {
    InductorConfig config;
    try {
        auto doc = nlohmann::json::parse(text);
        if (!doc.is_object() || doc.value("format", "") != dump_format) {
            throw UsageError("inductor config dump: not a '" + std::string(dump_format) +
                             "' document (is the routetune_inductor.py helper from this routetune?)");
        }
        config.torch_version = doc.value("torch_version", "");
        for (const auto& entry : doc.at("entries")) {
            if (auto knob = knob_from_entry(entry)) config.knobs.push_back(std::move(*knob));
        }
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(std::string("inductor config dump: malformed JSON: ") + e.what());
    }
    return config;
}

}  // namespace routetune
