// Which evaluations keep their scratch folder (and so their artifact). By default the
// default route's and exactly the routes the confirmation would take now (routes_to_confirm,
// the confirmation's own rule, ties included) during the search, and only the default's and
// the winner's at the end (with an unfinished outcome, the routes the confirmation would take
// too); --keep-artifacts keeps all.
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
    /// keep_all: never delete; top and min_gain: the confirmation's confirm_top and min_gain.
    ArtifactKeeper(StudyPaths paths, bool keep_all, int top, double min_gain);

    /// Before failed evaluation e is recorded: deletes its folder (unless keep_all, or it is the
    /// default's), so that what a failed run wrote (it may have filled the disk) is gone
    /// before the store writes.
    void before_record(const Evaluation& e) const;

    /// After evaluation e finished (earlier: those before it, in the order the confirmation will
    /// see them): deletes the folder of every route, e included, that is not the default and
    /// that the confirmation would not take (routes_to_confirm over earlier and then e): e's
    /// when it failed or was answered by a twin (same_as: the twin's folder holds the artifact).
    void after_evaluation(const Evaluation& e, const std::vector<Evaluation>& earlier,
                          const std::optional<Evaluation>& default_evaluation);

    /// At the end: keeps only the default's and the winner's folders, and while the outcome is
    /// unfinished those of the routes the confirmation would take (`tune --continue` confirms
    /// them without building them again); all with keep_all; removes folders of routes that
    /// never finished.
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
    double min_gain_;
};

}  // namespace routetune
