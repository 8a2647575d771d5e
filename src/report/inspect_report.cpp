// Formats an InspectResult: the manifest's fields as aligned lines (the default route shown
// as "(default)"), the SHA-256 verdict spelled out, and the fingerprint sorted by key.
#include "report/inspect_report.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "report/report_row.hpp"

namespace routetune {

namespace {

std::string speedup_text(const ArtifactManifest& manifest) {
    if (manifest.outcome == "built") return "not measured (built by `routetune build`, not chosen by a study)";
    if (!std::isfinite(manifest.speedup)) return "unknown";
    std::string text = format_speedup(manifest.speedup);
    if (std::isfinite(manifest.ci_low) && std::isfinite(manifest.ci_high)) {
        text += " (95% CI [" + format_speedup(manifest.ci_low) + ", " + format_speedup(manifest.ci_high) + "])";
    }
    return text;
}

}  // namespace

std::string inspect_text(const InspectResult& result) {
    const ArtifactManifest& m = result.manifest;
    std::string sha = m.sha256 + (result.sha_matches ? " (matches the artifact)"
                                                     : " (MISMATCH: the artifact now hashes to " +
                                                           result.actual_sha256 + ")");
    std::vector<std::pair<std::string, std::string>> lines{
        {"artifact", result.artifact.string()},
        {"route", m.route.empty() ? "(default)" : m.route},
        {"route hash", m.route_hash},
        {"study", m.study},
        {"spec", m.spec},
        {"outcome", m.outcome},
        {"speedup", speedup_text(m)},
        {"sha256", sha},
        {"bytes", std::to_string(m.bytes)},
        {"created", m.created_at},
        {"routetune", m.routetune_version},
    };
    std::size_t width = 0;
    for (const auto& [label, value] : lines) width = std::max(width, label.size());
    std::string out;
    for (const auto& [label, value] : lines) {
        if (value.empty()) continue;
        out += label + std::string(width - label.size() + 2, ' ') + value + "\n";
    }
    out += "fingerprint\n";
    std::size_t key_width = 0;
    for (const auto& [key, value] : m.fingerprint) key_width = std::max(key_width, key.size());
    for (const auto& [key, value] : m.fingerprint) {
        out += "  " + key + std::string(key_width - key.size() + 2, ' ') + value + "\n";
    }
    return out;
}

nlohmann::ordered_json inspect_json(const InspectResult& result) {
    nlohmann::ordered_json json;
    json["artifact"] = result.artifact.string();
    json["manifest"] = manifest_to_json(result.manifest);
    json["sha256_actual"] = result.actual_sha256;
    json["bytes_actual"] = result.actual_bytes;
    json["sha256_matches"] = result.sha_matches;
    return json;
}

}  // namespace routetune
