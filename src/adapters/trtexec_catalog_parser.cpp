// Parsing trtexec's knob database and reports. The database is JSON (nlohmann); each
// option's "allowed_values" reads "-name=[a|b|c]" (bounded list), "-name=[a|b|...]" (listed
// values, more allowed) or "-name=<something>" (no list). The GPU time is taken from the
// performance summary line "GPU Compute Time: min = a ms, max = b ms, mean = c ms,
// median = d ms, ..." by a regular expression over the whole text.
#include "adapters/trtexec_catalog_parser.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <regex>

#include "routetune/error.hpp"

namespace routetune {

namespace {

bool is_integer(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

std::string json_text(const nlohmann::json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (value.is_null()) return "";
    if (value.is_boolean()) return value.get<bool>() ? "on" : "off";
    return value.dump();
}

std::vector<std::string> split_bar(std::string_view text) {
    std::vector<std::string> values;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('|', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string value(text.substr(pos, end - pos));
        while (!value.empty() && value.front() == ' ') value.erase(value.begin());
        while (!value.empty() && value.back() == ' ') value.pop_back();
        values.push_back(value);
        pos = end + 1;
    }
    return values;
}

Knob knob_from_option(const nlohmann::json& option) {
    Knob knob;
    knob.name = json_text(option.at("option"));
    if (!knob.name.empty() && knob.name[0] != '-') knob.name = "-" + knob.name;
    if (!is_valid_knob_name(knob.name)) {
        throw UsageError("trtexec --helpBuildRoute: option name '" + knob.name + "' is not a valid knob name");
    }
    knob.default_value = option.contains("default_value") ? json_text(option.at("default_value")) : "";
    knob.help = option.contains("help") ? json_text(option.at("help")) : "";
    knob.tags.push_back("trtexec");
    std::string allowed = option.contains("allowed_values") ? json_text(option.at("allowed_values")) : "";
    std::size_t open = allowed.find('[');
    std::size_t close = allowed.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close < open) {
        knob.bounded = false;
        if (is_integer(knob.default_value)) {
            knob.type = KnobType::Int;
        } else {
            knob.type = KnobType::Enum;
            if (!knob.default_value.empty()) knob.values.push_back(knob.default_value);
        }
        return knob;
    }
    std::vector<std::string> listed = split_bar(std::string_view(allowed).substr(open + 1, close - open - 1));
    for (const auto& value : listed) {
        if (value == "...") {
            knob.bounded = false;
        } else if (!value.empty()) {
            knob.values.push_back(value);
        }
    }
    bool on_off = knob.bounded && knob.values.size() == 2 &&
                  ((knob.values[0] == "on" && knob.values[1] == "off") || (knob.values[0] == "off" && knob.values[1] == "on"));
    if (on_off) {
        knob.type = KnobType::Bool;
        knob.values = {"on", "off"};
    } else {
        knob.type = KnobType::Enum;
        bool listed_default = std::find(knob.values.begin(), knob.values.end(), knob.default_value) != knob.values.end();
        if (!knob.default_value.empty() && !listed_default) knob.values.push_back(knob.default_value);
    }
    return knob;
}

}  // namespace

TrtexecKnobDatabase parse_trtexec_build_route_help(std::string_view text) {
    std::size_t open = text.find('{');
    std::size_t close = text.rfind('}');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        throw UsageError("trtexec --helpBuildRoute printed no JSON object (does this trtexec support build routes?)");
    }
    TrtexecKnobDatabase database;
    try {
        auto doc = nlohmann::json::parse(text.substr(open, close - open + 1));
        database.tuner_version = doc.contains("tuner_version") ? json_text(doc.at("tuner_version")) : "";
        for (const auto& option : doc.at("tuner_options")) database.knobs.push_back(knob_from_option(option));
    } catch (const nlohmann::json::exception& e) {
        throw UsageError(std::string("trtexec --helpBuildRoute: malformed knob database: ") + e.what());
    }
    return database;
}

std::optional<double> parse_trtexec_gpu_time(std::string_view text) {
    static const std::regex line(R"((^|[^A-Za-z])GPU Compute Time: ([^\n]*))");
    static const std::regex median(R"(median = ([0-9.eE+-]+) ms)");
    static const std::regex mean(R"(mean = ([0-9.eE+-]+) ms)");
    std::string all(text);
    for (auto it = std::sregex_iterator(all.begin(), all.end(), line); it != std::sregex_iterator(); ++it) {
        std::size_t start = static_cast<std::size_t>(it->position(0));
        if (start >= 5 && all.compare(start - 5, 6, "Total ") == 0) continue;
        std::string fields = (*it)[2];
        std::smatch value;
        if (std::regex_search(fields, value, median) || std::regex_search(fields, value, mean)) {
            try {
                return std::stod(value[1]);
            } catch (const std::exception&) {
                return std::nullopt;
            }
        }
    }
    return std::nullopt;
}

}  // namespace routetune
