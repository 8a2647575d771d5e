// The rules that pick a winner (docs/design.md, "A study" 6): stage one keeps the Ok routes whose
// search-phase speedup (paired when measured so) is at least 1 + min_gain, highest first, at most top;
// stage two's winner is the route whose bootstrap interval's lower end clears 1 + min_gain.
// Every expectation below is computed from those rules by hand.
#include "study/selection.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "study/artifact_keeper.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

Evaluation timed(const std::string& route, double median_s, Status status = Status::Ok) {
    Evaluation e;
    e.route = Route::parse(route);
    e.status = status;
    e.timing.median_s = median_s;
    return e;
}

Confirmation confirmed(const std::string& route, double speedup, double low, double high) {
    Confirmation c;
    c.route = Route::parse(route);
    c.speedup = speedup;
    c.ci_low = low;
    c.ci_high = high;
    return c;
}

TEST(ConfirmationCandidates, KeepsOkRoutesAtLeastMinGainFasterFastestFirst) {
    Evaluation base = timed("", 1.0);
    // min_gain 0.25: a candidate needs a median of at most 1.0 / 1.25 = 0.8.
    std::vector<Evaluation> all{base, timed("-a=1", 0.8), timed("-a=2", 0.81), timed("-a=3", 0.5),
                                timed("-b=on", 0.1, Status::Inaccurate)};
    std::vector<Evaluation> picked = confirmation_candidates(all, base, 0.25, 3);
    ASSERT_EQ(picked.size(), 2u);
    EXPECT_EQ(picked[0].route.to_string(), "-a=3");
    EXPECT_EQ(picked[1].route.to_string(), "-a=1");
    EXPECT_EQ(confirmation_candidates(all, base, 0.25, 1).size(), 1u) << "at most top of them";
}

TEST(ConfirmationCandidates, PairedSpeedupsNotDriftedMediansPickTheFinalists) {
    Evaluation base = timed("", 1.0);
    Evaluation drifted = timed("-a=1", 0.5);  // its median alone: 2x; its pairs: 1.0x
    drifted.paired = {{0.5, 0.5, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5, 0.5}};
    Evaluation real = timed("-a=2", 0.9);     // its median alone: 1.11x; its pairs: 1.3x
    real.paired = {{1.3, 1.3, 1.3, 1.3, 1.3}, {1, 1, 1, 1, 1}};
    std::vector<Evaluation> picked = confirmation_candidates({base, drifted, real}, base, 0.02, 3);
    ASSERT_EQ(picked.size(), 1u);
    EXPECT_EQ(picked[0].route.to_string(), "-a=2");
}

// The artifact keeper keeps the folders of the routes the confirmation will pick: ranked by the
// same paired speedups, not by drifted medians.
TEST(ArtifactKeeper, KeepsTheFoldersOfThePairedFinalists) {
    namespace fs = std::filesystem;
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-keeper-");
    StudyPaths paths = make_study_paths(dir, "keep", dir / "keep.sqlite");
    ArtifactKeeper keeper(paths, false, 1, 0.02);
    Evaluation base = timed("", 1.0);
    Evaluation drifted = timed("-a=1", 0.5);
    drifted.paired = {{0.5, 0.5, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5, 0.5}};
    Evaluation real = timed("-a=2", 0.9);
    real.paired = {{1.3, 1.3, 1.3, 1.3, 1.3}, {1, 1, 1, 1, 1}};
    for (const auto* e : {&drifted, &real}) fs::create_directories(paths.workdir(e->route.hash()));
    keeper.after_evaluation(drifted, {base}, base);
    keeper.after_evaluation(real, {base, drifted}, base);
    EXPECT_TRUE(fs::exists(paths.workdir(real.route.hash()))) << "1.3x paired: the one finalist";
    EXPECT_FALSE(fs::exists(paths.workdir(drifted.route.hash()))) << "1.0x paired, however fast its own median";
    remove_tree_quietly(dir);
}

TEST(ConfirmationCandidates, NoneWhenTheDefaultFailed) {
    Evaluation base = timed("", 1.0, Status::RunFailed);
    EXPECT_TRUE(confirmation_candidates({base, timed("-a=1", 0.1)}, base, 0.02, 3).empty());
}

TEST(PickWinner, TheIntervalNotTheMedianMustClearOnePlusMinGain) {
    // 1.4x by its median, but the interval's lower end 1.2 is below 1 + 0.249.
    EXPECT_FALSE(pick_winner({confirmed("-a=1", 1.4, 1.2, 1.6)}, 0.249));
    // The mutant: 1.25x with min_gain 0.249 must not win unless the whole interval clears it.
    EXPECT_FALSE(pick_winner({confirmed("-a=1", 1.25, 1.1, 1.4)}, 0.249));
    auto winner = pick_winner({confirmed("-a=1", 1.3, 1.25, 1.35)}, 0.249);
    ASSERT_TRUE(winner);
    EXPECT_EQ(winner->route.to_string(), "-a=1");
}

TEST(PickWinner, AnIntervalWhoseLowEndIsExactlyOnePlusMinGainWins) {
    // "at least 1 + min_gain": 0.25 and 1.25 are exact in binary, so the low end sits on the bar.
    auto winner = pick_winner({confirmed("-a=1", 1.3, 1.25, 1.35)}, 0.25);
    ASSERT_TRUE(winner) << "the bar is inclusive";
    EXPECT_EQ(winner->route.to_string(), "-a=1");
}

TEST(PickWinner, TheHighestSpeedupAmongThoseThatClearTheBar) {
    auto winner = pick_winner({confirmed("-a=1", 3.0, 0.9, 5.0), confirmed("-a=2", 1.5, 1.3, 1.7),
                               confirmed("-a=3", 1.8, 1.4, 2.2)},
                              0.2);
    ASSERT_TRUE(winner);
    EXPECT_EQ(winner->route.to_string(), "-a=3") << "-a=1 is faster by its median but not with confidence";
}

TEST(MakeConfirmation, SpeedupIsTheRatioOfMediansWithAnIntervalAroundIt) {
    Confirmation exact = make_confirmation(Route::parse("-a=1"), {2, 2, 2, 2, 2}, {1, 1, 1, 1, 1});
    EXPECT_DOUBLE_EQ(exact.speedup, 2.0);
    EXPECT_DOUBLE_EQ(exact.ci_low, 2.0);
    EXPECT_DOUBLE_EQ(exact.ci_high, 2.0);
    Confirmation noisy = make_confirmation(Route::parse("-a=1"), {1.0, 1.1, 0.9, 1.0, 1.05, 0.95},
                                           {0.5, 0.8, 0.4, 0.5, 0.6, 0.45});
    EXPECT_DOUBLE_EQ(noisy.speedup, 1.0 / 0.5);
    EXPECT_LT(noisy.ci_low, noisy.speedup);
    EXPECT_GT(noisy.ci_high, noisy.speedup);
}

TEST(FastestEligible, TheFastestOkRouteTheDefaultIncluded) {
    auto fastest = fastest_eligible({timed("", 1.0), timed("-a=1", 0.1, Status::RunCrashed), timed("-a=2", 0.9)});
    ASSERT_TRUE(fastest);
    EXPECT_EQ(fastest->route.to_string(), "-a=2");
    EXPECT_FALSE(fastest_eligible({timed("-a=1", 0.1, Status::BuildFailed)}));
}

// routes_to_confirm is the confirmation's choice and the artifact keeper's: an evaluation
// answered by a twin (same_as) is never taken on its own, whichever branch of the rule applies
// and wherever it stands in the history (a scale-out store orders rows by their commit).
TEST(RoutesToConfirm, AnAnswerOfATwinIsNeverTakenWithAFailedOrUnknownDefault) {
    Evaluation twin = timed("-a=1", 0.5);
    Evaluation answer = timed("-a=2", 0.5);
    answer.same_as = "-a=1";
    std::vector<Evaluation> history{answer, twin, timed("-a=3", 0.7)};
    auto failed = routes_to_confirm(history, timed("", 0.0, Status::RunCrashed), 0.02, 3);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].route, twin.route) << "the twin stands for its answer";
    auto unknown = routes_to_confirm(history, std::nullopt, 0.02, 3);
    ASSERT_EQ(unknown.size(), 2u);
    EXPECT_EQ(unknown[0].route, twin.route);
    EXPECT_EQ(unknown[1].route.to_string(), "-a=3");
    auto with_default = routes_to_confirm(history, timed("", 1.0), 0.02, 3);
    ASSERT_EQ(with_default.size(), 2u);
    EXPECT_EQ(with_default[0].route, twin.route);
}

}  // namespace
}  // namespace routetune
