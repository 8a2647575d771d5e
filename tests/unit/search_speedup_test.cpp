// The search phase's one speedup figure (routetune/evaluation.hpp): paired rounds give the
// median of default/candidate ratios with the order-statistic interval of that median; the
// default against itself (and a candidate answered by its artifact) is 1 with its A/A interval;
// unpaired evaluations keep the default's
// median over their own. Expectations are computed by hand from the rule.
#include <gtest/gtest.h>

#include <cmath>

#include "routetune/evaluation.hpp"

namespace routetune {
namespace {

Evaluation timed(const std::string& route, double median, double low, double high) {
    Evaluation e;
    e.route = Route::parse(route);
    e.status = Status::Ok;
    e.timing.median_s = median;
    e.timing.ci_low_s = low;
    e.timing.ci_high_s = high;
    return e;
}

TEST(PairedSpeedup, TheMedianRatioWithOrderStatisticsOfTheRatios) {
    // Ratios 2, 2.5, 1.25, 1, 5, 0.5, 1.6, 0.8, 1.25; sorted 0.5 0.8 1 1.25 1.25 1.6 2 2.5 5.
    // n = 9: P(B(9, 1/2) <= 1) = 10/512 <= 0.025 < P(B <= 2) = 46/512, so k = 2: [x(2), x(8)].
    PairedTiming paired{{10, 10, 10, 10, 10, 10, 10, 10, 10}, {5, 4, 8, 10, 2, 20, 6.25, 12.5, 8}};
    auto s = paired_speedup(paired);
    ASSERT_TRUE(s.has_value());
    EXPECT_DOUBLE_EQ(s->speedup, 1.25);
    EXPECT_DOUBLE_EQ(s->ci_low, 0.8);
    EXPECT_DOUBLE_EQ(s->ci_high, 2.5);
    EXPECT_TRUE(s->paired);
}

TEST(PairedSpeedup, SevenRoundsGiveTheRangeOfTheRatios) {
    // n = 7: P(B <= 0) = 1/128 <= 0.025 < P(B <= 1) = 8/128: k = 1, [min, max]; even n takes
    // the mean of the middle two.
    auto seven = paired_speedup({{2, 2, 2, 2, 2, 2, 2}, {1, 2, 4, 1.6, 2.5, 1.25, 2}});
    ASSERT_TRUE(seven.has_value());
    EXPECT_DOUBLE_EQ(seven->speedup, 1.0);  // ratios 2 1 0.5 1.25 0.8 1.6 1
    EXPECT_DOUBLE_EQ(seven->ci_low, 0.5);
    EXPECT_DOUBLE_EQ(seven->ci_high, 2.0);
    auto four = paired_speedup({{3, 3, 3, 3}, {1, 2, 3, 6}});  // ratios 3 1.5 1 0.5
    EXPECT_DOUBLE_EQ(four->speedup, 1.25);
}

TEST(PairedSpeedup, ALoadThatDriftsBetweenRoundsCancelsWithinEachPair) {
    // The machine slows down 30% a round; each pair ran back to back at the same speed.
    PairedTiming paired{{1.0, 1.3, 1.69, 2.197, 2.8561, 3.71293, 4.826809},
                        {0.5, 0.65, 0.845, 1.0985, 1.42805, 1.856465, 2.4134045}};
    auto s = paired_speedup(paired);
    EXPECT_NEAR(s->speedup, 2.0, 1e-12);
    EXPECT_NEAR(s->ci_low, 2.0, 1e-12);
    EXPECT_NEAR(s->ci_high, 2.0, 1e-12);
}

TEST(PairedSpeedup, NoPairsNoFigure) {
    EXPECT_FALSE(paired_speedup({}).has_value());
    EXPECT_FALSE(paired_speedup({{1, 2}, {1}}).has_value()) << "lists of different lengths are not pairs";
    EXPECT_FALSE(paired_speedup({{0, 1}, {1, 0}}).has_value()) << "no pair of positive times";
}

TEST(SpeedupAgainstDefault, PairedRoundsWinOverTheMedians) {
    Evaluation d = timed("", 0.100, 0.095, 0.105);
    Evaluation e = timed("-O=3", 0.050, 0.040, 0.0625);  // its median alone would say 2x
    e.paired = {{0.06, 0.06, 0.06, 0.06, 0.06, 0.06, 0.06}, {0.05, 0.06, 0.06, 0.06, 0.04, 0.06, 0.06}};
    auto s = speedup_against_default(e, d);
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(s->paired);
    EXPECT_DOUBLE_EQ(s->speedup, 1.0);
    EXPECT_DOUBLE_EQ(s->ci_low, 1.0);
    EXPECT_DOUBLE_EQ(s->ci_high, 1.5);
}

TEST(SpeedupAgainstDefault, UnpairedIsTheDefaultsMedianOverTheRoutesInterval) {
    Evaluation d = timed("", 0.100, 0.095, 0.105);
    auto s = speedup_against_default(timed("-O=3", 0.050, 0.040, 0.0625), d);
    ASSERT_TRUE(s.has_value());
    EXPECT_FALSE(s->paired);
    EXPECT_DOUBLE_EQ(s->speedup, 2.0);
    EXPECT_DOUBLE_EQ(s->ci_low, 1.6);
    EXPECT_DOUBLE_EQ(s->ci_high, 2.5);
    auto bare = speedup_against_default(timed("-O=3", 0.050, 0, 0), d);
    EXPECT_DOUBLE_EQ(bare->speedup, 2.0);
    EXPECT_TRUE(std::isnan(bare->ci_low) && std::isnan(bare->ci_high)) << "no interval to divide";
    EXPECT_FALSE(speedup_against_default(timed("-O=3", 0, 0, 0), d).has_value());
    EXPECT_FALSE(speedup_against_default(timed("-O=3", 0.05, 0.04, 0.06), timed("", 0, 0, 0)).has_value());
}

TEST(SpeedupAgainstDefault, TheDefaultIsOneWithItsAaInterval) {
    Evaluation d = timed("", 0.100, 0.095, 0.105);
    d.paired = {{1, 1, 1, 1, 1, 1, 1}, {0.8, 0.8, 0.8, 0.8, 1, 1.25, 1}};  // ratios 1.25 x4, 1, 0.8, 1
    auto s = speedup_against_default(d, d);
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(s->paired);
    EXPECT_DOUBLE_EQ(s->speedup, 1.0) << "1 by definition, not the A/A median 1.25";
    EXPECT_DOUBLE_EQ(s->ci_low, 0.8);
    EXPECT_DOUBLE_EQ(s->ci_high, 1.25);
    d.paired = {};
    auto unpaired = speedup_against_default(d, d);
    EXPECT_FALSE(unpaired->paired);
    EXPECT_DOUBLE_EQ(unpaired->speedup, 1.0);
    EXPECT_DOUBLE_EQ(unpaired->ci_low, 0.1 / 0.105);
}

// A candidate answered by the default's artifact (same_as "(default)") carries the default's
// figures and A/A rounds: it is the default, 1 exactly, never the A/A median as a gain.
TEST(SpeedupAgainstDefault, AnAnswerByTheDefaultsArtifactIsOne) {
    Evaluation d = timed("", 0.100, 0.095, 0.105);
    d.paired = {{1, 1, 1, 1, 1, 1, 1}, {0.8, 0.8, 0.8, 0.8, 1, 1.25, 1}};  // A/A median 1.25
    Evaluation twin = d;
    twin.route = Route::parse("-a=on");
    twin.same_as = "(default)";
    auto s = speedup_against_default(twin, d);
    ASSERT_TRUE(s.has_value());
    EXPECT_DOUBLE_EQ(s->speedup, 1.0);
    EXPECT_DOUBLE_EQ(s->ci_low, 0.8);
    EXPECT_DOUBLE_EQ(s->ci_high, 1.25);
}

}  // namespace
}  // namespace routetune
