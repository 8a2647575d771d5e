// The manifest that travels with an artifact copied out by `--output PATH`: PATH.routetune.json
// says which route built PATH, under which environment, how much faster it was, and the
// SHA-256 that `inspect` checks PATH against, and where the study that chose it keeps its
// records (store, audit log), which `inspect` cross-checks (govern/artifact_evidence.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "routetune/route.hpp"
#include "routetune/study.hpp"

namespace routetune {

/// What the caller knows of the artifact it hands to write_output.
struct ManifestInfo {
    Route route;
    std::map<std::string, std::string> fingerprint;
    std::string study;
    double speedup = 1;       ///< confirmed speedup over the default (1 for the default itself)
    double ci_low = 1;        ///< its 95% interval
    double ci_high = 1;
    Outcome outcome = Outcome::Unfinished;
    std::string outcome_text;  ///< when set, written instead of outcome ("built": a plain build, no study)
    std::string spec_path;
    std::string store;        ///< the study store (absolute path, or URL without its password); "" for none
    std::string audit;        ///< the audit log the study wrote to; "" for none
    std::string created_at;   ///< ISO 8601 UTC; "" means now
};

/// The contents of PATH.routetune.json.
struct ArtifactManifest {
    std::string route;                               ///< canonical text; "" is the default route
    std::string route_hash;
    std::map<std::string, std::string> fingerprint;
    std::string sha256;                              ///< of the artifact's bytes
    std::uint64_t bytes = 0;
    std::string study;
    std::string spec;
    std::string store;                               ///< where the study's evidence is ("" unknown)
    std::string audit;                               ///< the study's audit log ("" unknown)
    double speedup = 1;
    double ci_low = 1;
    double ci_high = 1;
    std::string outcome;
    std::string created_at;
    std::string routetune_version;
};

/// What inspect_artifact found.
struct InspectResult {
    std::filesystem::path artifact;
    ArtifactManifest manifest;
    std::string actual_sha256;   ///< of the artifact as it is now
    std::uint64_t actual_bytes = 0;
    bool sha_matches = false;    ///< false: the artifact changed since the manifest was written
};

/// PATH.routetune.json for artifact PATH.
std::filesystem::path manifest_path(const std::filesystem::path& artifact);

/// Throws UsageError unless output may receive an artifact: its folder exists, and output is
/// absent or an artifact routetune wrote (a regular file with its manifest), never a link.
void check_artifact_output(const std::filesystem::path& output);

/// Copies artifact (a regular file; a link is refused) to output (checked by
/// check_artifact_output; temporary file + rename, permission bits kept) and writes output's
/// manifest the same way; returns the manifest. Throws RuntimeFailure naming the path when the
/// artifact cannot be read or output not written.
ArtifactManifest write_output(const std::filesystem::path& artifact, const std::filesystem::path& output,
                              const ManifestInfo& info);

/// Reads artifact's manifest and hashes the artifact. Throws UsageError when the artifact or
/// its manifest is missing or the manifest is malformed; a changed artifact is sha_matches=false.
InspectResult inspect_artifact(const std::filesystem::path& artifact);

/// The manifest as JSON, in the order of the struct (non-finite speedups become null).
nlohmann::ordered_json manifest_to_json(const ArtifactManifest& manifest);

/// The inverse of manifest_to_json; throws UsageError naming a missing or mistyped key.
ArtifactManifest manifest_from_json(const nlohmann::ordered_json& json);

}  // namespace routetune
