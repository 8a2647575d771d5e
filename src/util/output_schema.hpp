// The version of the JSON documents routetune prints (summaries, catalogs, expansions, plans,
// verdicts, locks' flags, reviews, audits, manifests, simulations, the live view's state):
// every one carries it as "schema_version", first, through versioned_json_text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace routetune {

/// Raised when a key of a printed JSON document is removed or changes meaning or unit; adding
/// a key does not raise it. Version 1: times in seconds under keys ending in "_s" (or named
/// "time"), speedups as factors, counts as numbers with their exact decimals beside them.
inline constexpr int kOutputSchemaVersion = 1;

/// doc as printed: "schema_version" (kOutputSchemaVersion) first, then doc's own keys in
/// their order (a "schema_version" of doc's own is dropped); nlohmann's dump(indent), and a
/// newline. doc must be an object.
std::string versioned_json_text(const nlohmann::ordered_json& doc, int indent = 2);

}  // namespace routetune
