// The parts of the summary JSON that say how the study measured: the wall time against
// --time-limit (and what the search kept free for the confirmation, and what that took), each
// warm measurement process with its checks of the default, the code each build ran, and the
// confirmation's fresh builds of the default. Written into and read from the summary object
// by report/summary_json.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "routetune/study.hpp"

namespace routetune {

/// Adds "time", "default_build_medians_s", "warm_processes" and "code_identities" to out.
void put_measurement_json(nlohmann::ordered_json& out, const StudySummary& summary);

/// Reads what put_measurement_json wrote (each key optional: older summaries lack them) into summary.
void read_measurement_json(const nlohmann::ordered_json& in, StudySummary& summary);

}  // namespace routetune
