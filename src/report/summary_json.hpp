// The study summary as JSON (what `tune --json` and `report --format json` print), and back.
//
// JSON has no NaN or infinity, so every non-finite number is written as null. Losses keep
// which one it was, because an infinite or NaN loss is the very reason a route was rejected:
// an evaluation with one carries "loss_nonfinite": {case: "nan" | "inf" | "-inf"}, and the
// summary's "notes" say so. Both read back exactly.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "routetune/study.hpp"

namespace routetune {

/// The design's JSON summary; metric names the loss metric (top-level "metric"; "" if unknown).
nlohmann::ordered_json summary_to_json(const StudySummary& summary, std::string_view metric = "");

/// summary_to_json as text, indented by indent spaces (-1: one line), ending in a newline.
std::string summary_json_text(const StudySummary& summary, std::string_view metric = "",
                              int indent = 2);

/// The inverse of summary_to_json for every field the JSON carries (timing samples, logs and
/// per-case details other than the loss are not in it); throws UsageError naming a bad key.
StudySummary summary_from_json(const nlohmann::ordered_json& json);

/// Parses text and reads it with summary_from_json; throws UsageError on bad JSON.
StudySummary summary_from_json_text(std::string_view text);

/// The loss metric named by a summary's JSON ("" when absent).
std::string summary_metric(const nlohmann::ordered_json& json);

}  // namespace routetune
