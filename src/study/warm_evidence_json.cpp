// One JSON form for the warm processes' reports and the code identities; see the header.
#include "study/warm_evidence_json.hpp"

#include <optional>
#include <string>

namespace routetune {
namespace {

nlohmann::ordered_json number_or_null(const std::optional<double>& value) {
    return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
}

std::optional<double> optional_number(const nlohmann::json& entry, const char* key) {
    if (!entry.contains(key) || !entry[key].is_number()) return std::nullopt;
    return entry[key].get<double>();
}

}  // namespace

nlohmann::ordered_json warm_processes_json(const std::vector<WarmProcessReport>& reports) {
    auto list = nlohmann::ordered_json::array();
    for (const auto& r : reports) {
        list.push_back({{"lane", r.lane}, {"pid", r.pid}, {"runs", r.runs}, {"routes", r.routes},
                        {"default_first_s", number_or_null(r.default_first_s)},
                        {"default_last_s", number_or_null(r.default_last_s)}, {"ended", r.ended},
                        {"request_median_s", number_or_null(r.request_median_s)},
                        {"request_max_s", number_or_null(r.request_max_s)}});
    }
    return list;
}

std::vector<WarmProcessReport> warm_processes_from_json(const nlohmann::json& list) {
    std::vector<WarmProcessReport> reports;
    for (const auto& r : list.get<std::vector<nlohmann::json>>()) {
        reports.push_back(WarmProcessReport{r.value("lane", ""), r.value("pid", 0L), r.value("runs", std::size_t{0}),
                                            r.value("routes", std::size_t{0}), optional_number(r, "default_first_s"),
                                            optional_number(r, "default_last_s"), r.value("ended", ""),
                                            optional_number(r, "request_median_s"), optional_number(r, "request_max_s")});
    }
    return reports;
}

nlohmann::ordered_json code_identities_json(const std::vector<CodeIdentity>& identities) {
    auto list = nlohmann::ordered_json::array();
    for (const auto& c : identities) {
        list.push_back({{"route", c.route.to_string()}, {"artifact_sha256", c.artifact_sha256},
                        {"code_sha256", c.code_sha256}, {"paths", c.paths}, {"why", c.why}});
    }
    return list;
}

std::vector<CodeIdentity> code_identities_from_json(const nlohmann::json& list) {
    std::vector<CodeIdentity> identities;
    for (const auto& c : list.get<std::vector<nlohmann::json>>()) {
        identities.push_back(CodeIdentity{Route::parse(c.value("route", "")), c.value("artifact_sha256", ""),
                                          c.value("code_sha256", ""),
                                          c.value("paths", std::vector<std::string>{}),
                                          c.value("why", std::vector<std::string>{})});
    }
    return identities;
}

}  // namespace routetune
