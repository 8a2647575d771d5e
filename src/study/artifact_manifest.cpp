// Writes and checks artifact manifests. Both files go through util/files' atomic write (a
// temporary name in the destination folder, fsync'ed, renamed over the final name), so a
// reader sees either the old file or the complete new one, also after a crash. The manifest's sha256 is computed from the copy itself, after copying,
// so it describes exactly the bytes at PATH. Inspecting re-hashes PATH and compares.
#include "study/artifact_manifest.hpp"

#include <cmath>
#include <fstream>

#include "routetune/error.hpp"
#include "util/bounded_read.hpp"
#include "util/files.hpp"
#include "util/output_path.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

Json number(double value) {
    return std::isfinite(value) ? Json(value) : Json(nullptr);
}

[[noreturn]] void bad(const std::string& key, const std::string& what) {
    throw UsageError("artifact manifest: \"" + key + "\": " + what);
}

std::string text_at(const Json& json, const char* key) {
    auto it = json.find(key);
    if (it == json.end()) bad(key, "missing");
    if (!it->is_string()) bad(key, "expected a string");
    return it->get<std::string>();
}

double number_at(const Json& value, const std::string& key) {
    if (value.is_null()) return NAN;
    if (!value.is_number()) bad(key, "expected a number");
    return value.get<double>();
}

}  // namespace

fs::path manifest_path(const fs::path& artifact) {
    return fs::path(artifact.string() + ".routetune.json");
}

void check_artifact_output(const fs::path& output) {
    check_output_path(output, "--output", [](const fs::path& path) {
        std::error_code error;
        return fs::is_regular_file(fs::symlink_status(manifest_path(path), error));
    });
    check_output_path(manifest_path(output), "--output's manifest");
}

ArtifactManifest write_output(const fs::path& artifact, const fs::path& output, const ManifestInfo& info) {
    std::error_code error;
    auto status = fs::symlink_status(artifact, error);
    if (error || !fs::is_regular_file(status)) {
        throw RuntimeFailure("cannot copy artifact " + artifact.string() +
                             (error ? ": " + error.message() : ": not a regular file (a link is not followed)"));
    }
    check_artifact_output(output);
    if (!(fs::exists(output) && fs::equivalent(artifact, output, error))) {
        std::string why;
        if (!copy_file_atomically(artifact, output, &why))
            throw RuntimeFailure("cannot copy " + artifact.string() + " to " + output.string() + ": " + why);
    }
    auto sha = sha256_file(output);
    if (!sha) throw RuntimeFailure("cannot read " + output.string() + " back to hash it");
    ArtifactManifest manifest;
    manifest.route = info.route.to_string();
    manifest.route_hash = info.route.hash();
    manifest.fingerprint = info.fingerprint;
    manifest.sha256 = *sha;
    manifest.bytes = fs::file_size(output);
    manifest.study = info.study;
    manifest.spec = info.spec_path;
    manifest.store = info.store;
    manifest.audit = info.audit;
    manifest.speedup = info.speedup;
    manifest.ci_low = info.ci_low;
    manifest.ci_high = info.ci_high;
    manifest.outcome = info.outcome_text.empty() ? std::string(to_string(info.outcome)) : info.outcome_text;
    manifest.created_at = info.created_at.empty() ? iso8601_utc_now() : info.created_at;
    manifest.routetune_version = ROUTETUNE_VERSION;
    std::string why;
    if (!write_file(manifest_path(output), manifest_to_json(manifest).dump(2) + "\n", &why))
        throw RuntimeFailure("cannot write " + manifest_path(output).string() + ": " + why);
    return manifest;
}

InspectResult inspect_artifact(const fs::path& artifact) {
    std::error_code error;
    if (!fs::is_regular_file(artifact, error)) {
        throw UsageError("inspect: no artifact at " + artifact.string());
    }
    fs::path path = manifest_path(artifact);
    BoundedRead text = read_bounded(path, kMaxManifestBytes, "manifest");
    if (text.missing) {
        throw UsageError("inspect: " + artifact.string() + " has no manifest (expected " +
                         path.string() + ", written by `routetune tune --output`)");
    }
    if (!text.bytes) throw UsageError("inspect: " + text.error);
    Json json = Json::parse(*text.bytes, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        throw UsageError("inspect: " + path.string() + " is not a JSON object");
    }
    InspectResult result;
    result.artifact = artifact;
    result.manifest = manifest_from_json(json);
    auto sha = sha256_file(artifact);
    if (!sha) throw UsageError("inspect: cannot read " + artifact.string());
    result.actual_sha256 = *sha;
    result.actual_bytes = fs::file_size(artifact, error);
    result.sha_matches = result.actual_sha256 == result.manifest.sha256;
    return result;
}

Json manifest_to_json(const ArtifactManifest& manifest) {
    Json json;
    json["route"] = manifest.route;
    json["route_hash"] = manifest.route_hash;
    Json fingerprint = Json::object();
    for (const auto& [key, value] : manifest.fingerprint) fingerprint[key] = value;
    json["fingerprint"] = std::move(fingerprint);
    json["sha256"] = manifest.sha256;
    json["bytes"] = manifest.bytes;
    json["study"] = manifest.study;
    json["spec"] = manifest.spec;
    json["store"] = manifest.store;
    json["audit"] = manifest.audit;
    json["speedup"] = number(manifest.speedup);
    json["speedup_ci95"] = Json::array({number(manifest.ci_low), number(manifest.ci_high)});
    json["outcome"] = manifest.outcome;
    json["created_at"] = manifest.created_at;
    json["routetune_version"] = manifest.routetune_version;
    return json;
}

ArtifactManifest manifest_from_json(const Json& json) {
    ArtifactManifest manifest;
    manifest.route = text_at(json, "route");
    if (json.contains("route_hash")) manifest.route_hash = text_at(json, "route_hash");
    auto fingerprint = json.find("fingerprint");
    if (fingerprint == json.end() || !fingerprint->is_object()) bad("fingerprint", "expected an object");
    for (auto it = fingerprint->begin(); it != fingerprint->end(); ++it) {
        if (!it.value().is_string()) bad("fingerprint." + it.key(), "expected a string");
        manifest.fingerprint[it.key()] = it.value().get<std::string>();
    }
    manifest.sha256 = text_at(json, "sha256");
    auto bytes = json.find("bytes");
    if (bytes == json.end() || !bytes->is_number_unsigned()) bad("bytes", "expected a non-negative integer");
    manifest.bytes = bytes->get<std::uint64_t>();
    manifest.study = text_at(json, "study");
    if (json.contains("spec")) manifest.spec = text_at(json, "spec");
    if (json.contains("store")) manifest.store = text_at(json, "store");
    if (json.contains("audit")) manifest.audit = text_at(json, "audit");
    auto speedup = json.find("speedup");
    if (speedup == json.end()) bad("speedup", "missing");
    manifest.speedup = number_at(*speedup, "speedup");
    auto ci = json.find("speedup_ci95");
    if (ci == json.end() || !ci->is_array() || ci->size() != 2) bad("speedup_ci95", "expected [low, high]");
    manifest.ci_low = number_at((*ci)[0], "speedup_ci95[0]");
    manifest.ci_high = number_at((*ci)[1], "speedup_ci95[1]");
    manifest.outcome = text_at(json, "outcome");
    manifest.created_at = text_at(json, "created_at");
    manifest.routetune_version = text_at(json, "routetune_version");
    return manifest;
}

}  // namespace routetune
