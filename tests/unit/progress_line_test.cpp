#include "report/progress_line.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "unit/sample_summary.hpp"

namespace routetune {
namespace {

ProgressCounters counters(std::uint64_t done, std::uint64_t total, double elapsed) {
    ProgressCounters c;
    c.done = done;
    c.total = total;
    c.elapsed_s = elapsed;
    return c;
}

TEST(ProgressLine, FullLineWithFailuresBestAndTimeLeft) {
    ProgressCounters c = counters(12, 40, 65);
    c.eligible = 9;
    c.failed = {{Status::RunTimeout, 2}, {Status::BuildFailed, 1}, {Status::RunCrashed, 0}};
    c.best_speedup = 1.234;
    EXPECT_EQ(format_progress(c),
              "[12/40 30%] ok 9, failed 3 (build_failed 1, run_timeout 2), best 1.23× unconfirmed, 1m05s elapsed, "
              "~2m31s left");  // 65 s / 12 done × 28 left = 151.7 s
}

TEST(ProgressLine, UnknownTotalHasNoPercentNorTimeLeft) {
    ProgressCounters c = counters(3, 0, 7.9);
    c.eligible = 3;
    EXPECT_EQ(format_progress(c), "[3/?] ok 3, failed 0, 7s elapsed");
}

TEST(ProgressLine, MoreDoneThanPlannedShowsAnUnknownTotal) {
    ProgressCounters c = counters(12, 9, 237);  // mixed: 9 planned in phase one, then phase two
    c.eligible = 12;
    EXPECT_EQ(format_progress(c), "[12/?] ok 12, failed 0, 3m57s elapsed");
}

TEST(ProgressLine, NothingDoneYetHasNoTimeLeft) {
    EXPECT_EQ(format_progress(counters(0, 10, 2)), "[0/10 0%] ok 0, failed 0, 2s elapsed");
}

TEST(ProgressLine, AllDoneIsHundredPercent) {
    ProgressCounters c = counters(10, 10, 3725);
    c.eligible = 10;
    EXPECT_EQ(format_progress(c), "[10/10 100%] ok 10, failed 0, 1h02m elapsed");
}

TEST(ProgressLine, Durations) {
    EXPECT_EQ(format_duration(0), "0s");
    EXPECT_EQ(format_duration(59.99), "59s");
    EXPECT_EQ(format_duration(60), "1m00s");
    EXPECT_EQ(format_duration(3599), "59m59s");
    EXPECT_EQ(format_duration(7200 + 180), "2h03m");
    EXPECT_EQ(format_duration(-5), "0s");
}

TEST(ProgressLine, CountersOfASummary) {
    ProgressCounters c = progress_counters(testing::sample_summary());
    EXPECT_EQ(c.done, 5u);
    EXPECT_EQ(c.total, 8u);
    EXPECT_EQ(c.eligible, 3u);
    EXPECT_EQ(c.failed, (std::map<Status, std::uint64_t>{{Status::Inaccurate, 1}, {Status::BuildFailed, 1}}));
    EXPECT_EQ(format_progress(c),
              "[5/8 62%] ok 3, failed 2 (inaccurate 1, build_failed 1), best 1.25× unconfirmed, 12s elapsed, ~7s left");
}

TEST(ProgressLine, TheBestSpeedupIsThePairedOne) {
    StudySummary s = testing::sample_summary();
    s.evaluations[2].paired = {{1.1, 1.1, 1.1}, {1, 1, 1}};  // -O=3: 1.25x by its median, 1.1x paired
    EXPECT_NE(format_progress(progress_counters(s)).find("best 1.10×"), std::string::npos);
}

TEST(ProgressWriter, TerminalRedrawsInPlace) {
    std::ostringstream out;
    ProgressWriter writer(out, true);
    writer.update(counters(1, 2, 1));
    writer.update(counters(1, 2, 1.5));
    writer.finish(counters(2, 2, 2));
    writer.update(counters(3, 2, 3));
    EXPECT_EQ(out.str(),
              "\r\x1b[K[1/2 50%] ok 0, failed 0, 1s elapsed, ~1s left"
              "\r\x1b[K[1/2 50%] ok 0, failed 0, 1s elapsed, ~1s left"
              "\r\x1b[K[2/2 100%] ok 0, failed 0, 2s elapsed\n");
}

TEST(ProgressWriter, PlainOutputIsThrottledLines) {
    std::ostringstream out;
    ProgressWriter writer(out, false, 10);
    writer.update(counters(1, 0, 1));
    writer.update(counters(2, 0, 5));
    writer.update(counters(3, 0, 11));
    writer.update(counters(4, 0, 20));
    writer.finish(counters(5, 0, 21));
    EXPECT_EQ(out.str(),
              "[1/?] ok 0, failed 0, 1s elapsed\n"
              "[3/?] ok 0, failed 0, 11s elapsed\n"
              "[5/?] ok 0, failed 0, 21s elapsed\n");
}

TEST(ProgressLine, ConfirmationLine) {
    EXPECT_EQ(format_confirmation(ConfirmationProgress{3, 4, 10, 65}),
              "confirming 3 routes against the default: round 4/10, 1m05s elapsed");
    EXPECT_EQ(format_confirmation(ConfirmationProgress{1, 0, 10, 2}),
              "confirming 1 route against the default: warm-up pass, 2s elapsed");
}

TEST(ProgressLine, MinimizationLine) {
    EXPECT_EQ(format_minimization(MinimizationProgress{12, 9, 4, 190}),
              "minimizing the winner: trial 12, removing 4 of 9 changes, 3m10s elapsed");
    EXPECT_EQ(format_minimization(MinimizationProgress{1, 1, 1, 2}),
              "minimizing the winner: trial 1, removing 1 of 1 change, 2s elapsed");
}

// What a terminal shows at the end: the text after the last erase-line code.
std::string visible(const std::string& drawn) {
    auto at = drawn.rfind("\x1b[K");
    return at == std::string::npos ? drawn : drawn.substr(at + 3);
}

TEST(ProgressWriter, TerminalConfirmationTakesTheLineAndFinishLeavesOnlyTheCounters) {
    std::ostringstream out;
    ProgressWriter writer(out, true);
    writer.update(counters(2, 2, 1));
    for (int round = 1; round <= 3; ++round) writer.confirming(ConfirmationProgress{2, round, 3, 1.0 + round});
    EXPECT_EQ(visible(out.str()), "confirming 2 routes against the default: round 3/3, 4s elapsed");
    EXPECT_EQ(out.str().find('\n'), std::string::npos) << "nothing is left on a line of its own while it runs";
    writer.finish(counters(2, 2, 5));
    EXPECT_EQ(visible(out.str()), "[2/2 100%] ok 0, failed 0, 5s elapsed\n");
}

TEST(ProgressWriter, PlainConfirmationPrintsItsFirstAndLastRoundsAndThrottlesTheRest) {
    std::ostringstream out;
    ProgressWriter writer(out, false, 10);
    writer.update(counters(2, 2, 1));
    for (int round = 0; round <= 4; ++round) writer.confirming(ConfirmationProgress{1, round, 4, 2.0 + round});
    writer.finish(counters(2, 2, 7));
    EXPECT_EQ(out.str(),
              "[2/2 100%] ok 0, failed 0, 1s elapsed\n"
              "confirming 1 route against the default: warm-up pass, 2s elapsed\n"
              "confirming 1 route against the default: round 1/4, 3s elapsed\n"
              "confirming 1 route against the default: round 4/4, 6s elapsed\n"
              "[2/2 100%] ok 0, failed 0, 7s elapsed\n");
}

TEST(ProgressWriter, AbandonedConfirmationIsCleared) {
    std::ostringstream out;
    ProgressWriter writer(out, true);
    writer.confirming(ConfirmationProgress{2, 1, 3, 1});
    writer.abandon();
    writer.confirming(ConfirmationProgress{2, 2, 3, 2});
    EXPECT_EQ(visible(out.str()), "");
    EXPECT_EQ(out.str().find("round 2/3"), std::string::npos);
}

}  // namespace
}  // namespace routetune
