// Cross-checks of an artifact against records that its manifest does not hold: the study store
// the manifest names (its evaluation rows and its outcome record each artifact's sha256 when it
// was built) and the study's hash-chained audit log (one "artifact-written" entry per
// `tune --output`). Someone who edits an artifact and rewrites the sha256 in its manifest passes
// the manifest's own check, but not these, unless they also rewrite the store and the log.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "govern/audit_log.hpp"
#include "study/artifact_manifest.hpp"

namespace routetune {

/// What one check found.
enum class EvidenceVerdict { Passed, Mismatch, Unverified };

/// One check of an artifact against one source of evidence.
struct EvidenceCheck {
    std::string against;  ///< "its manifest", "the study", "the audit log"
    EvidenceVerdict verdict = EvidenceVerdict::Unverified;
    std::string detail;   ///< what was compared and found, or why the check could not be made
};

/// Where to look instead of the places the manifest names (which its editor may have changed).
struct EvidenceSources {
    std::string store;            ///< a study store path or postgresql:// URL; "" = the manifest's
    std::filesystem::path audit;  ///< an audit log; "" = the manifest's, else the one beside the store
};

/// The checks of result's artifact, in order: its manifest's sha256; the study store (the
/// artifact's sha256 among the route's recorded builds; the manifest's outcome, winner and
/// speedup against the recorded outcome); the audit log (its chain intact; an
/// "artifact-written" entry with this sha256). Never throws for missing or unreadable evidence:
/// that check is Unverified with the reason.
std::vector<EvidenceCheck> check_artifact_evidence(const InspectResult& result, const EvidenceSources& sources);

/// True when any check is a Mismatch.
bool any_mismatch(const std::vector<EvidenceCheck>& checks);

/// "passed", "MISMATCH", "unverified".
std::string_view to_string(EvidenceVerdict verdict);

/// The audit entry `tune --output` appends after writing manifest's artifact to output for the
/// study in store: action "artifact-written", evidence output, sha256, bytes, route, route_hash,
/// study and outcome.
AuditEntry artifact_written_entry(const ArtifactManifest& manifest, const std::filesystem::path& output,
                                  const std::string& store, std::vector<std::string> command);

}  // namespace routetune
