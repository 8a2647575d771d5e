// The version of the JSON documents routetune prints (summaries, catalogs, expansions, plans,
// verdicts): every one carries it as "schema_version", first.
#pragma once

namespace routetune {

/// Raised when a key of a printed JSON document is removed or changes meaning or unit; adding
/// a key does not raise it. Version 1: times in seconds under keys ending in "_s" (or named
/// "time"), speedups as factors, counts as numbers with their exact decimals beside them.
inline constexpr int kOutputSchemaVersion = 1;

}  // namespace routetune
