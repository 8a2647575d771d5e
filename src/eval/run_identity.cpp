// The identity is a SHA-256 over length-prefixed fields (artifact hash, then each environment
// entry and each generated file, in name order), so no two different inputs can print alike.
#include "eval/run_identity.hpp"

#include <algorithm>
#include <vector>

#include "util/sha256.hpp"

namespace routetune {

namespace {

void field(std::string& text, const std::string& value) { text += std::to_string(value.size()) + ":" + value; }

}  // namespace

std::string run_identity(const std::string& artifact_sha256, const AppliedRoute& applied) {
    if (artifact_sha256.empty()) return "";
    std::string text = "artifact";
    field(text, artifact_sha256);
    text += "env";
    for (const auto& [name, value] : applied.environment) field(text, name), field(text, value);
    std::vector<const GeneratedFile*> files;
    for (const auto& file : applied.files) files.push_back(&file);
    std::sort(files.begin(), files.end(), [](const GeneratedFile* a, const GeneratedFile* b) { return a->name < b->name; });
    text += "files";
    for (const GeneratedFile* file : files) field(text, file->name), field(text, file->content);
    return sha256_hex(text);
}

}  // namespace routetune
