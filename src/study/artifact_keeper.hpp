// Which evaluations keep their scratch folder (and so their artifact). By default the
// default route's and the current best few (candidates for the confirmation) during the
// search, and only the default's and the winner's at the end; --keep-artifacts keeps all.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "routetune/evaluation.hpp"
#include "eval/study_paths.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// Bytes under a study's work folder, by kind.
struct ArtifactBytes {
    std::uint64_t binaries = 0;  ///< each scratch folder's {artifact} (a file, or a folder's files)
    std::uint64_t outputs = 0;   ///< every other file: run outputs, metrics, what the build left beside it
};

/// Deletes the artifacts a study no longer needs.
class ArtifactKeeper {
public:
    /// keep_all: never delete; top: how many of the fastest eligible routes stay during the search.
    ArtifactKeeper(StudyPaths paths, bool keep_all, int top);

    /// Before failed evaluation e is recorded: deletes its folder (unless keep_all, or it is the
    /// default's), so that what a failed run wrote (it may have filled the disk) is gone
    /// before the store writes.
    void before_record(const Evaluation& e) const;

    /// After evaluation e finished (earlier: those before it): deletes e's folder if it failed,
    /// was answered by a twin (same_as) or is not among the fastest `top`, and the folder of a
    /// route it pushed out.
    void after_evaluation(const Evaluation& e, const std::vector<Evaluation>& earlier,
                          const std::optional<Evaluation>& default_evaluation);

    /// At the end: keeps only the default's and the winner's folders (all with keep_all), and
    /// removes folders of routes that never finished.
    void finish(const std::vector<Evaluation>& evaluations, const std::optional<StudyOutcome>& outcome);

    /// Bytes of every file still under the work folder.
    std::uint64_t bytes_kept() const;
    /// The same bytes, split into binaries and outputs.
    ArtifactBytes bytes_by_kind() const;

private:
    void drop(const Route& route) const;

    StudyPaths paths_;
    bool keep_all_;
    int top_;
};

}  // namespace routetune
