// What `routetune inspect ARTIFACT` prints, as text or JSON.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "study/artifact_manifest.hpp"

namespace routetune {

/// Aligned "label  value" lines: artifact, route, study, spec, outcome, speedup, sha256 and
/// whether it matches, bytes, created, version, then the fingerprint indented.
std::string inspect_text(const InspectResult& result);

/// {"artifact", "manifest": {...}, "sha256_actual", "bytes_actual", "sha256_matches"}.
nlohmann::ordered_json inspect_json(const InspectResult& result);

}  // namespace routetune
