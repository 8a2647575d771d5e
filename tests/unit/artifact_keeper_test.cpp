// The artifact keeper keeps exactly the scratch folders the confirmation will use
// (routes_to_confirm, the confirmation's own rule): never one the confirmation would have to
// rebuild, ties in median included, also at the end of a study left unfinished.
#include "study/artifact_keeper.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "study/selection.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class ArtifactKeeperTest : public ::testing::Test {
protected:
    void SetUp() override {
        paths_.root = make_scratch_folder(fs::temp_directory_path(), "routetune-keeper-");
        paths_.work = paths_.root / "work";
    }
    void TearDown() override { remove_tree_quietly(paths_.root); }

    /// An evaluation of route with median_s, and its scratch folder holding an artifact.
    Evaluation evaluation(const std::string& route, double median_s, Status status = Status::Ok) {
        Evaluation e;
        e.route = Route::parse(route);
        e.status = status;
        e.timing.median_s = median_s;
        fs::create_directories(paths_.workdir(e.route.hash()));
        std::ofstream(paths_.workdir(e.route.hash()) / "artifact") << route;
        return e;
    }

    bool kept(const Evaluation& e) const { return fs::exists(paths_.workdir(e.route.hash())); }

    /// Commits each evaluation as the ledger does: the keeper sees those before it.
    void commit_all(ArtifactKeeper& keeper, const std::vector<Evaluation>& evaluations,
                    const std::optional<Evaluation>& default_evaluation) {
        std::vector<Evaluation> earlier;
        for (const auto& e : evaluations) {
            keeper.after_evaluation(e, earlier, default_evaluation);
            earlier.push_back(e);
        }
    }

    StudyPaths paths_;
};

TEST_F(ArtifactKeeperTest, RoutesThatTieKeepTheArtifactsTheConfirmationTakes) {
    // Four routes tie exactly (instant measurements of one reported time); confirm_top 3. The
    // confirmation takes the first three in history order: their folders must all be there.
    Evaluation base = evaluation("", 1.0);
    std::vector<Evaluation> routes{evaluation("-a=1", 0.9), evaluation("-a=2", 0.9), evaluation("-a=3", 0.9),
                                   evaluation("-a=4", 0.9)};
    ArtifactKeeper keeper(paths_, false, 3, 0.02);
    commit_all(keeper, routes, base);
    std::vector<Evaluation> confirmed = confirmation_candidates(routes, base, 0.02, 3);
    ASSERT_EQ(confirmed.size(), 3u);
    for (const auto& e : confirmed) EXPECT_TRUE(kept(e)) << e.route.to_string() << " would be rebuilt";
    EXPECT_FALSE(kept(routes[3])) << "the fourth tie is not confirmed";
}

TEST_F(ArtifactKeeperTest, OnlyRoutesFasterByMinGainAndAmongTheTopStay) {
    Evaluation base = evaluation("", 1.0);
    std::vector<Evaluation> routes{evaluation("-a=1", 0.99), evaluation("-a=2", 0.8), evaluation("-a=3", 0.0, Status::BuildFailed),
                                   evaluation("-a=4", 0.7), evaluation("-a=5", 0.75)};
    ArtifactKeeper keeper(paths_, false, 2, 0.02);
    commit_all(keeper, routes, base);
    EXPECT_FALSE(kept(routes[0])) << "not min_gain faster than the default";
    EXPECT_FALSE(kept(routes[1])) << "pushed out of the top two";
    EXPECT_FALSE(kept(routes[2])) << "failed";
    EXPECT_TRUE(kept(routes[3]));
    EXPECT_TRUE(kept(routes[4]));
}

TEST_F(ArtifactKeeperTest, WithAFailedDefaultTheFastestEligibleRouteStays) {
    Evaluation base = evaluation("", 0.0, Status::RunCrashed);
    std::vector<Evaluation> routes{evaluation("-a=1", 0.5), evaluation("-a=2", 0.5), evaluation("-a=3", 0.6)};
    ArtifactKeeper keeper(paths_, false, 3, 0.02);
    commit_all(keeper, routes, base);
    EXPECT_TRUE(kept(routes[0])) << "fastest_eligible: the first of the tie wins";
    EXPECT_FALSE(kept(routes[1]));
    EXPECT_FALSE(kept(routes[2]));
}

TEST_F(ArtifactKeeperTest, BeforeTheDefaultIsKnownNothingOkIsDropped) {
    std::vector<Evaluation> routes{evaluation("-a=1", 0.5), evaluation("-a=2", 2.0), evaluation("-a=3", 0.0, Status::BuildFailed)};
    ArtifactKeeper keeper(paths_, false, 1, 0.02);
    commit_all(keeper, routes, std::nullopt);
    EXPECT_TRUE(kept(routes[0]));
    EXPECT_TRUE(kept(routes[1]));
    EXPECT_FALSE(kept(routes[2]));
}

TEST_F(ArtifactKeeperTest, AtTheEndAnUnfinishedStudyKeepsWhatItsConfirmationWouldTake) {
    Evaluation base = evaluation("", 1.0);
    std::vector<Evaluation> all{base, evaluation("-a=1", 0.8), evaluation("-a=2", 0.99)};
    StudyOutcome outcome;
    outcome.outcome = Outcome::Unfinished;
    ArtifactKeeper keeper(paths_, false, 1, 0.02);
    keeper.finish(all, outcome);
    EXPECT_TRUE(kept(all[0])) << "the default";
    EXPECT_TRUE(kept(all[1])) << "`tune --continue` would build it again to confirm it";
    EXPECT_FALSE(kept(all[2])) << "not min_gain faster than the default";

    outcome.outcome = Outcome::DefaultStays;
    keeper.finish(all, outcome);
    EXPECT_TRUE(kept(all[0]));
    EXPECT_FALSE(kept(all[1])) << "a decided study keeps the default's and the winner's alone";
}

}  // namespace
}  // namespace routetune
