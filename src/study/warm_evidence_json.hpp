// The warm measurement processes' evidence as JSON (docs/measurement-protocol.md): each process's
// report and the code each build ran, in the one form that the summary JSON and the store's notes
// share, so that `report` gives back what `tune` printed.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "routetune/study.hpp"

namespace routetune {

/// reports as a JSON array of {lane, pid, runs, routes, default_first_s, default_last_s (null when
/// absent), ended}, its fields in that order.
nlohmann::ordered_json warm_processes_json(const std::vector<WarmProcessReport>& reports);

/// The reports warm_processes_json wrote; an entry's missing fields keep their defaults. Throws
/// nlohmann::json::exception when list is not an array of objects.
std::vector<WarmProcessReport> warm_processes_from_json(const nlohmann::json& list);

/// identities as a JSON array of {route, artifact_sha256, code_sha256, paths}, its fields in that order.
nlohmann::ordered_json code_identities_json(const std::vector<CodeIdentity>& identities);

/// The identities code_identities_json wrote (paths empty where an older study recorded none).
/// Throws nlohmann::json::exception when list is not an array of objects.
std::vector<CodeIdentity> code_identities_from_json(const nlohmann::json& list);

}  // namespace routetune
