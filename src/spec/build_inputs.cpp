// glob(3) expands each pattern against the spec's folder (GLOB_MARK tells folders apart);
// a folder is walked with recursive_directory_iterator, which does not descend into linked
// folders, skipping hidden entries. Every file found is checked with outside_folder, so a link
// out of the folder is refused by name wherever it sits.
#include "spec/build_inputs.hpp"

#include <glob.h>

#include <vector>

#include "routetune/error.hpp"
#include "util/confined_path.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> glob_paths(const fs::path& pattern) {
    glob_t found{};
    std::vector<fs::path> paths;
    if (::glob(pattern.c_str(), GLOB_MARK, nullptr, &found) == 0)
        for (std::size_t i = 0; i < found.gl_pathc; ++i) paths.emplace_back(found.gl_pathv[i]);
    ::globfree(&found);
    return paths;
}

bool hidden(const fs::path& path) {
    std::string name = path.filename().string();
    return !name.empty() && name[0] == '.';
}

std::vector<fs::path> files_below(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code error;
    for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
        if (hidden(it->path())) {
            if (it->is_directory(error)) it.disable_recursion_pending();
            continue;
        }
        if (it->is_regular_file(error)) files.push_back(it->path());
    }
    return files;
}

}  // namespace

std::map<std::string, fs::path> input_pattern_files(const Spec& spec, const std::string& pattern, std::string* error) {
    std::map<std::string, fs::path> files;
    bool relative = !fs::path(pattern).is_absolute();
    fs::path full = relative ? (spec.dir / pattern).lexically_normal() : fs::path(pattern).lexically_normal();
    if (relative && !lies_within(spec.dir, full)) {
        *error = "'" + pattern + "' leaves the spec's folder " + spec.dir.string() +
                 " (name files inside it, or give an absolute path)";
        return {};
    }
    for (const fs::path& match : glob_paths(full)) {
        std::string text = match.string();
        std::vector<fs::path> found;
        if (!text.empty() && text.back() == '/') found = files_below(fs::path(text).parent_path());
        else if (std::error_code e; fs::is_regular_file(match, e)) found.push_back(match);
        for (const fs::path& file : found) {
            if (relative) {
                if (auto why = outside_folder(spec.dir, file)) {
                    *error = "'" + pattern + "' names " + file.lexically_relative(spec.dir).string() + ", which " +
                             "is refused: " + *why;
                    return {};
                }
            }
            files.emplace(relative ? file.lexically_relative(spec.dir).generic_string() : file.string(), file);
            if (files.size() > kMaxBuildInputs) {
                *error = "'" + pattern + "' names more than " + std::to_string(kMaxBuildInputs) + " files";
                return {};
            }
        }
    }
    return files;
}

std::map<std::string, fs::path> build_input_files(const Spec& spec, UnmatchedInputs unmatched) {
    std::map<std::string, fs::path> all;
    for (const auto& pattern : spec.build.inputs) {
        std::string error;
        auto files = input_pattern_files(spec, pattern, &error);
        if (error.empty() && files.empty() && unmatched == UnmatchedInputs::Refused)
            error = "'" + pattern + "' matches no file (looked for " + (spec.dir / pattern).lexically_normal().string() +
                    "); a lock must name the files its build reads";
        if (!error.empty()) throw UsageError(spec.file.string() + ": [build] inputs: " + error);
        all.merge(files);
        if (all.size() > kMaxBuildInputs)
            throw UsageError(spec.file.string() + ": [build] inputs name more than " + std::to_string(kMaxBuildInputs) + " files");
    }
    return all;
}

std::map<std::string, std::string> build_input_hashes(const Spec& spec, UnmatchedInputs unmatched) {
    std::map<std::string, std::string> hashes;
    for (const auto& [key, file] : build_input_files(spec, unmatched)) hashes[key] = sha256_file(file).value_or("(unreadable)");
    return hashes;
}

}  // namespace routetune
