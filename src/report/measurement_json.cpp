// "time": {"limit_s" (null without a limit), "wall_s", "within_limit", "confirmation_reserve_s",
// "confirmation_s", "confirmation_deadline_s" (null when none)}; "default_build_medians_s" with "default_build_spread"; "warm_processes":
// [{"lane", "pid", "runs", "routes", "default_first_s", "default_last_s", "ended", "request_median_s", "request_max_s"}];
// "code_identities": [{"route", "artifact_sha256", "code_sha256", "paths"}] (study/warm_evidence_json).
// Absent lists are left out.
#include "report/measurement_json.hpp"

#include <cmath>

#include "study/warm_evidence_json.hpp"
#include "util/statistics.hpp"

namespace routetune {

using Json = nlohmann::ordered_json;

namespace {

std::optional<double> number_or_null(const Json& object, const char* key) {
    auto found = object.find(key);
    if (found == object.end() || !found->is_number()) return std::nullopt;
    return found->get<double>();
}

}  // namespace

void put_measurement_json(Json& out, const StudySummary& summary) {
    Json time;
    time["limit_s"] = summary.time_limit_s > 0 ? Json(summary.time_limit_s) : Json(nullptr);
    time["wall_s"] = std::isfinite(summary.wall_s) ? Json(summary.wall_s) : Json(nullptr);
    time["within_limit"] = summary.time_limit_s > 0 ? Json(summary.wall_s <= summary.time_limit_s) : Json(nullptr);
    time["confirmation_reserve_s"] = summary.confirmation_reserve_s;
    time["confirmation_s"] = summary.confirmation_s;
    time["confirmation_deadline_s"] = summary.confirmation_deadline_s > 0 ? Json(summary.confirmation_deadline_s) : Json(nullptr);
    out["time"] = std::move(time);
    if (!summary.default_build_medians_s.empty()) {
        out["default_build_medians_s"] = summary.default_build_medians_s;
        out["default_build_spread"] = relative_spread(summary.default_build_medians_s);
    }
    if (!summary.warm_processes.empty()) out["warm_processes"] = warm_processes_json(summary.warm_processes);
    if (!summary.code_identities.empty()) out["code_identities"] = code_identities_json(summary.code_identities);
}

void read_measurement_json(const Json& in, StudySummary& summary) {
    if (auto time = in.find("time"); time != in.end() && time->is_object()) {
        summary.time_limit_s = number_or_null(*time, "limit_s").value_or(0);
        summary.confirmation_reserve_s = number_or_null(*time, "confirmation_reserve_s").value_or(0);
        summary.confirmation_s = number_or_null(*time, "confirmation_s").value_or(0);
        summary.confirmation_deadline_s = number_or_null(*time, "confirmation_deadline_s").value_or(0);
    }
    if (auto medians = in.find("default_build_medians_s"); medians != in.end() && medians->is_array())
        summary.default_build_medians_s = medians->get<std::vector<double>>();
    if (auto list = in.find("warm_processes"); list != in.end() && list->is_array())
        summary.warm_processes = warm_processes_from_json(nlohmann::json(*list));
    if (auto list = in.find("code_identities"); list != in.end() && list->is_array())
        summary.code_identities = code_identities_from_json(nlohmann::json(*list));
}

}  // namespace routetune
