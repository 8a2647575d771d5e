#include "study/artifact_keeper.hpp"

#include <algorithm>
#include <set>

#include "study/selection.hpp"
#include "util/files.hpp"

namespace routetune {

namespace fs = std::filesystem;

ArtifactKeeper::ArtifactKeeper(StudyPaths paths, bool keep_all, int top, double min_gain)
    : paths_(std::move(paths)), keep_all_(keep_all), top_(top), min_gain_(min_gain) {}

void ArtifactKeeper::drop(const Route& route) const { remove_tree_quietly(paths_.workdir(route.hash())); }

void ArtifactKeeper::before_record(const Evaluation& e) const {
    if (!keep_all_ && !e.route.empty() && e.status != Status::Ok) drop(e.route);
}

void ArtifactKeeper::after_evaluation(const Evaluation& e, const std::vector<Evaluation>& earlier,
                                      const std::optional<Evaluation>& default_evaluation) {
    if (keep_all_ || e.route.empty()) return;
    std::vector<Evaluation> all = earlier;
    all.push_back(e);
    std::set<std::string> keep;
    for (const auto& kept : routes_to_confirm(all, default_evaluation, min_gain_, top_)) keep.insert(kept.route.hash());
    for (const auto& other : all)
        if (!other.route.empty() && !keep.count(other.route.hash()) && (other.status == Status::Ok || &other == &all.back()))
            drop(other.route);
}

void ArtifactKeeper::finish(const std::vector<Evaluation>& evaluations, const std::optional<StudyOutcome>& outcome) {
    std::set<std::string> keep{Route{}.hash()};
    if (outcome && outcome->winner) keep.insert(outcome->winner->hash());
    if (outcome && outcome->outcome == Outcome::Unfinished) {
        std::optional<Evaluation> default_evaluation;
        for (const auto& e : evaluations) {
            if (e.route.empty()) default_evaluation = e;
        }
        for (const auto& e : routes_to_confirm(evaluations, default_evaluation, min_gain_, top_))
            keep.insert(e.route.hash());
    }
    if (keep_all_) {
        for (const auto& e : evaluations) keep.insert(e.route.hash());
    }
    std::error_code ec;
    if (!fs::exists(paths_.work, ec)) return;
    std::vector<fs::path> doomed;
    for (const auto& entry : fs::directory_iterator(paths_.work, ec)) {
        if (!keep.count(entry.path().filename().string())) doomed.push_back(entry.path());
    }
    for (const auto& folder : doomed) remove_tree_quietly(folder);
}

std::uint64_t ArtifactKeeper::bytes_kept() const {
    ArtifactBytes bytes = bytes_by_kind();
    return bytes.binaries + bytes.outputs;
}

ArtifactBytes ArtifactKeeper::bytes_by_kind() const {
    ArtifactBytes bytes;
    std::error_code ec;
    if (!fs::exists(paths_.work, ec)) return bytes;
    for (auto it = fs::recursive_directory_iterator(paths_.work, ec); it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        // work/<route hash>/artifact, or a file inside work/<route hash>/artifact/
        fs::path inside = it->path().lexically_relative(paths_.work);
        auto part = inside.begin();
        bool binary = inside.begin() != inside.end() && ++part != inside.end() && *part == "artifact";
        (binary ? bytes.binaries : bytes.outputs) += it->file_size(ec);
    }
    return bytes;
}

}  // namespace routetune
