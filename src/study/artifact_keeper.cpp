#include "study/artifact_keeper.hpp"

#include <algorithm>
#include <set>

#include "util/files.hpp"

namespace routetune {

namespace fs = std::filesystem;

ArtifactKeeper::ArtifactKeeper(StudyPaths paths, bool keep_all, int top)
    : paths_(std::move(paths)), keep_all_(keep_all), top_(std::max(top, 1)) {}

void ArtifactKeeper::drop(const Route& route) const { remove_tree_quietly(paths_.workdir(route.hash())); }

void ArtifactKeeper::after_evaluation(const Evaluation& e, const std::vector<Evaluation>& earlier,
                                      const std::optional<Evaluation>& default_evaluation) {
    if (keep_all_ || e.route.empty()) return;
    if (e.status != Status::Ok || !e.same_as.empty()) {  // same_as: its twin's folder holds the artifact
        drop(e.route);
        return;
    }
    // Ranked by the search-phase speedup (what the confirmation picks by) when the default is
    // timed, else by median; a contender must beat the default's time.
    bool timed = default_evaluation && default_evaluation->timing.median_s > 0;
    auto gain = [&](const Evaluation& candidate) {
        std::optional<SpeedupEstimate> speedup = timed ? speedup_against_default(candidate, *default_evaluation) : std::nullopt;
        if (speedup) return speedup->speedup;
        return candidate.timing.median_s > 0 ? 1 / candidate.timing.median_s : 0.0;
    };
    std::vector<std::pair<double, const Evaluation*>> eligible{{gain(e), &e}};
    for (const auto& other : earlier) {
        if (other.status == Status::Ok && !other.route.empty() && other.same_as.empty())
            eligible.emplace_back(gain(other), &other);
    }
    std::stable_sort(eligible.begin(), eligible.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = 0; i < eligible.size(); ++i) {
        bool contender = i < static_cast<std::size_t>(top_) && (!timed || eligible[i].first > 1);
        if (!contender) drop(eligible[i].second->route);
    }
}

void ArtifactKeeper::finish(const std::vector<Evaluation>& evaluations, const std::optional<StudyOutcome>& outcome) {
    std::set<std::string> keep{Route{}.hash()};
    if (outcome && outcome->winner) keep.insert(outcome->winner->hash());
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
