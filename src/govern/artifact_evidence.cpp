// Artifact cross-checks. The study check opens the store read-only and looks for the artifact's
// actual sha256 among the builds recorded for the manifest's route (every evaluation row of that
// route, and the outcome's artifact for the winner); a study that never built the route, or
// built it with other bytes, is a mismatch, unless the store now holds a study started after
// the artifact was written (the artifact's own study was moved aside: nothing to compare). The
// manifest's claims (outcome, winner, speedup) are then compared with the recorded outcome. The
// audit check verifies the log's hash chain first, then looks for an "artifact-written" entry
// with the artifact's sha256; entries for the same route with other hashes are a mismatch.
#include "govern/artifact_evidence.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "eval/study_paths.hpp"
#include "govern/audit_file.hpp"
#include "routetune/error.hpp"
#include "store/study_store.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

EvidenceCheck make_check(const char* against, EvidenceVerdict result, std::string detail) {
    return EvidenceCheck{against, result, std::move(detail)};
}

std::string route_text(const std::string& route) { return route.empty() ? "(default)" : route; }

bool same_number(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

// The store to check against and, when there is none, why.
std::pair<std::string, std::string> store_of(const ArtifactManifest& m, const EvidenceSources& sources) {
    if (!sources.store.empty()) return {sources.store, ""};
    if (!m.store.empty()) return {m.store, ""};
    if (m.outcome == "built") return {"", "a plain `routetune build --output` is recorded in no study store"};
    if (!m.spec.empty() && !m.study.empty())
        return {make_study_paths(fs::path(m.spec).parent_path(), m.study).cache.string(), ""};
    return {"", "the manifest names no study store (give --store)"};
}

// The manifest's outcome, winner and speedup against the recorded outcome; nullopt when they agree.
std::optional<std::string> claims_differ(const ArtifactManifest& m, const StudyOutcome& outcome,
                                         const std::optional<StudyConfirmation>& confirmation) {
    std::string recorded(to_string(outcome.outcome));
    if (m.outcome != recorded) return "the manifest says outcome " + m.outcome + ", the study recorded " + recorded;
    std::string winner = outcome.winner ? outcome.winner->to_string() : "";
    if (winner != m.route)
        return "the manifest's route " + route_text(m.route) + " is not the study's choice " + route_text(winner);
    if (!outcome.winner || same_number(m.speedup, outcome.speedup)) return std::nullopt;
    if (confirmation) {
        for (const auto& c : confirmation->candidates)
            if (c.route == *outcome.winner && same_number(m.speedup, c.speedup)) return std::nullopt;
    }
    return "the manifest says speedup " + std::to_string(m.speedup) + ", the study recorded " +
           std::to_string(outcome.speedup);
}

EvidenceCheck compare_with_study(const StudyStore& store, const InspectResult& r, const std::string& hash,
                                 const std::string& where) {
    const ArtifactManifest& m = r.manifest;
    const char* study = "the study";
    auto header = store.read_header();
    if (!header) return make_check(study, EvidenceVerdict::Unverified, where + " holds no study yet");
    if (header->name != m.study)
        return make_check(study, EvidenceVerdict::Unverified, where + " holds study '" + header->name + "', not '" + m.study + "'");
    std::optional<StudyOutcome> outcome = store.read_outcome();
    std::string found, recorded;
    for (const auto& e : store.evaluations(CaseRows::Skip)) {
        if (e.route.hash() != hash || e.artifact_sha256.empty()) continue;
        recorded = e.artifact_sha256;
        if (recorded == r.actual_sha256) found = "evaluation " + std::to_string(e.id) + ", built " + e.started_at;
    }
    if (found.empty() && outcome && outcome->artifact_sha256 == r.actual_sha256 && outcome->winner &&
        outcome->winner->hash() == hash)
        found = "the outcome, recorded " + outcome->recorded_at;
    if (found.empty()) {
        if (header->created_at > m.created_at)
            return make_check(study, EvidenceVerdict::Unverified,
                           where + " holds a newer study '" + header->name + "' (started " + header->created_at +
                               ", after the artifact was written " + m.created_at + "); its own study was moved aside");
        if (recorded.empty())
            return make_check(study, EvidenceVerdict::Mismatch, "the study in " + where + " never built route " + route_text(m.route));
        return make_check(study, EvidenceVerdict::Mismatch,
                       "the study in " + where + " recorded route " + route_text(m.route) + "'s artifact as sha256 " +
                           recorded + "; this artifact hashes to " + r.actual_sha256);
    }
    if (outcome) {
        if (auto differ = claims_differ(m, *outcome, store.read_confirmation()))
            return make_check(study, EvidenceVerdict::Mismatch, *differ + " (" + where + ")");
    }
    return make_check(study, EvidenceVerdict::Passed,
                   where + " records this sha256 for route " + route_text(m.route) + " (" + found + ")" +
                       (outcome ? "; outcome, route and speedup agree" : "; the study has no outcome yet"));
}

EvidenceCheck study_check(const InspectResult& r, const std::string& hash, const std::string& location) {
    StoreLocation where(location);
    if (where.shares_work()) where.study = r.manifest.study;
    std::string shown = where.redacted();
    const char* study = "the study";
    if (!where.is_file() && location.find("***") != std::string::npos)
        return make_check(study, EvidenceVerdict::Unverified,
                       "the manifest names " + shown + " without its password; give --store URL");
    std::error_code error;
    if (where.is_file() && !fs::exists(fs::path(location), error))
        return make_check(study, EvidenceVerdict::Unverified, "no study store at " + shown);
    try {
        std::unique_ptr<StudyStore> store = StudyStore::open_read_only(where);
        return compare_with_study(*store, r, hash, shown);
    } catch (const UsageError& e) {
        return make_check(study, EvidenceVerdict::Unverified, "cannot read the study store " + shown + ": " + e.what());
    } catch (const RuntimeFailure& e) {
        return make_check(study, EvidenceVerdict::Unverified, "cannot read the study store " + shown + ": " + e.what());
    }
}

std::string text_of(const nlohmann::json& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

EvidenceCheck audit_check(const InspectResult& r, const std::string& hash, const fs::path& log) {
    const char* audit = "the audit log";
    if (log.empty()) return make_check(audit, EvidenceVerdict::Unverified, "the manifest names no audit log (give --audit)");
    std::optional<std::string> text;
    try {
        text = read_audit_log(log);
    } catch (const UsageError& e) {
        return make_check(audit, EvidenceVerdict::Unverified, e.what());
    }
    if (!text) return make_check(audit, EvidenceVerdict::Unverified, "no audit log at " + log.string());
    if (auto broken = verify_audit_chain(*text))
        return make_check(audit, EvidenceVerdict::Mismatch,
                       log.string() + " line " + std::to_string(broken->line) + ": " + broken->message);
    std::string other;
    std::size_t line = 0;
    for (const auto& entry : parse_audit_lines(*text)) {
        ++line;
        if (text_of(entry, "action") != "artifact-written" || !entry["evidence"].is_object()) continue;
        const nlohmann::json& evidence = entry["evidence"];
        std::string where = log.string() + " line " + std::to_string(line);
        if (text_of(evidence, "sha256") == r.actual_sha256)
            return make_check(audit, EvidenceVerdict::Passed,
                           where + " records this artifact written to " + text_of(evidence, "output") + " at " +
                               text_of(entry, "time"));
        if (text_of(evidence, "route_hash") == hash && text_of(evidence, "study") == r.manifest.study)
            other = where + " records route " + route_text(r.manifest.route) + "'s artifact as sha256 " +
                    text_of(evidence, "sha256") + "; this artifact hashes to " + r.actual_sha256;
    }
    if (!other.empty()) return make_check(audit, EvidenceVerdict::Mismatch, other);
    return make_check(audit, EvidenceVerdict::Unverified,
                   log.string() + " records no artifact of route " + route_text(r.manifest.route) + " of study '" +
                       r.manifest.study + "'");
}

// The hash of the manifest's route, or why the manifest's route and route_hash are not one route's.
std::pair<std::string, std::string> route_hash_of(const ArtifactManifest& m) {
    std::string hash;
    try {
        hash = Route::parse(m.route).hash();
    } catch (const UsageError& e) {
        return {"", std::string("the manifest's route is not a route: ") + e.what()};
    }
    if (!m.route_hash.empty() && m.route_hash != hash)
        return {"", "the manifest's route_hash " + m.route_hash + " is not its route's (" + hash + ")"};
    return {hash, ""};
}

}  // namespace

std::vector<EvidenceCheck> check_artifact_evidence(const InspectResult& result, const EvidenceSources& sources) {
    std::vector<EvidenceCheck> checks;
    checks.push_back(result.sha_matches
                         ? make_check("its manifest", EvidenceVerdict::Passed, "the artifact's sha256 matches its manifest")
                         : make_check("its manifest", EvidenceVerdict::Mismatch,
                                      "the artifact hashes to " + result.actual_sha256 + ", its manifest says " +
                                          result.manifest.sha256));
    auto [hash, bad_route] = route_hash_of(result.manifest);
    if (!bad_route.empty()) {
        checks.push_back(make_check("its manifest", EvidenceVerdict::Mismatch, bad_route));
        return checks;
    }
    auto [store, why_none] = store_of(result.manifest, sources);
    checks.push_back(store.empty() ? make_check("the study", EvidenceVerdict::Unverified, why_none)
                                   : study_check(result, hash, store));
    fs::path log = sources.audit;
    if (log.empty()) log = result.manifest.audit;
    if (log.empty() && !store.empty() && StoreLocation(store).is_file()) log = default_audit_path(store);
    checks.push_back(audit_check(result, hash, log));
    return checks;
}

bool any_mismatch(const std::vector<EvidenceCheck>& checks) {
    for (const auto& check : checks)
        if (check.verdict == EvidenceVerdict::Mismatch) return true;
    return false;
}

std::string_view to_string(EvidenceVerdict verdict) {
    switch (verdict) {
        case EvidenceVerdict::Passed: return "passed";
        case EvidenceVerdict::Mismatch: return "MISMATCH";
        case EvidenceVerdict::Unverified: return "unverified";
    }
    return "unverified";
}

AuditEntry artifact_written_entry(const ArtifactManifest& manifest, const fs::path& output, const std::string& store,
                                  std::vector<std::string> command) {
    AuditEntry entry = make_audit_entry("artifact-written", store, std::move(command));
    std::string absolute = fs::absolute(output).lexically_normal().string();
    entry.evidence = {{"output", absolute},        {"sha256", manifest.sha256},
                      {"bytes", manifest.bytes},   {"route", manifest.route},
                      {"route_hash", manifest.route_hash}, {"study", manifest.study},
                      {"outcome", manifest.outcome}};
    entry.result = "wrote " + absolute + " and its manifest";
    return entry;
}

}  // namespace routetune
