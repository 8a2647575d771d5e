#include "govern/override_rate.hpp"

#include <cmath>

#include "govern/audit_file.hpp"
#include "govern/audit_log.hpp"

namespace routetune {

OverrideRate override_rate(const std::vector<nlohmann::json>& entries) {
    OverrideRate rate;
    for (const auto& entry : entries) {
        if (entry.value("action", "") != "promoted") continue;
        ++rate.promotions;
        const nlohmann::json evidence = entry.value("evidence", nlohmann::json::object());
        if (evidence.is_object() && evidence.value("overrides_winner", false)) ++rate.overrides;
    }
    return rate;
}

OverrideRate override_rate(const std::filesystem::path& file) {
    std::optional<std::string> text = read_audit_log(file);
    return text ? override_rate(parse_audit_lines(*text)) : OverrideRate{};
}

nlohmann::json override_rate_json(const OverrideRate& rate) {
    nlohmann::json value = rate.promotions ? nlohmann::json(static_cast<double>(rate.overrides) / rate.promotions)
                                           : nlohmann::json(nullptr);
    return {{"promotions", rate.promotions}, {"overrides", rate.overrides}, {"rate", value}};
}

std::string override_rate_text(const OverrideRate& rate) {
    if (rate.promotions == 0) return "no promotion recorded";
    long percent = std::lround(100.0 * static_cast<double>(rate.overrides) / rate.promotions);
    return std::to_string(rate.overrides) + " of " + std::to_string(rate.promotions) + " promotion" +
           (rate.promotions == 1 ? "" : "s") + " overrode the study's winner (" + std::to_string(percent) + "%)";
}

}  // namespace routetune
