// Names of the statuses, as the design spells them: one table read in both directions.
#include "routetune/status.hpp"

#include <array>
#include <utility>

namespace routetune {

namespace {

constexpr std::array<std::pair<Status, std::string_view>, 11> kNames{{
    {Status::Pending, "pending"},
    {Status::Ok, "ok"},
    {Status::Inaccurate, "inaccurate"},
    {Status::RouteConflict, "route_conflict"},
    {Status::BuildFailed, "build_failed"},
    {Status::BuildCrashed, "build_crashed"},
    {Status::BuildTimeout, "build_timeout"},
    {Status::RunFailed, "run_failed"},
    {Status::RunCrashed, "run_crashed"},
    {Status::RunTimeout, "run_timeout"},
    {Status::Abandoned, "abandoned"},
}};

}  // namespace

std::string_view to_string(Status status) {
    for (const auto& [value, name] : kNames) {
        if (value == status) return name;
    }
    return "pending";
}

std::optional<Status> status_from_string(std::string_view text) {
    for (const auto& [value, name] : kNames) {
        if (name == text) return value;
    }
    return std::nullopt;
}

std::string status_names_text() {
    std::string text;
    for (const auto& [value, name] : kNames) text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
}

}  // namespace routetune
