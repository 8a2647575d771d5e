// Exact values for the timing statistics on small, hand-computed samples.
#include "util/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace routetune {
namespace {

std::vector<double> one_to(int n) {
    std::vector<double> values;
    for (int i = n; i >= 1; --i) values.push_back(i);  // descending: the functions must sort
    return values;
}

TEST(Median, OddEvenAndEmpty) {
    EXPECT_EQ(median({3, 1, 2}), 2);
    EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_EQ(median({7}), 7);
    EXPECT_TRUE(std::isnan(median({})));
}

TEST(Mean, Basic) {
    EXPECT_EQ(mean({1, 2, 3, 10}), 4);
    EXPECT_TRUE(std::isnan(mean({})));
}

TEST(MedianAbsoluteDeviation, IgnoresOneOutlier) {
    EXPECT_EQ(median_absolute_deviation({1, 2, 3, 4, 100}), 1);
    EXPECT_EQ(median_absolute_deviation({5, 5, 5}), 0);
}

TEST(MedianCi95, FewerThanSixFallsBackToMinMax) {
    Interval interval = median_ci95({5, 1, 4, 2, 3});
    EXPECT_EQ(interval.low, 1);
    EXPECT_EQ(interval.high, 5);
    EXPECT_FALSE(interval.exact);
    Interval single = median_ci95({2.5});
    EXPECT_EQ(single.low, 2.5);
    EXPECT_EQ(single.high, 2.5);
    EXPECT_FALSE(single.exact);
}

TEST(MedianCi95, EmptyIsNaN) {
    Interval interval = median_ci95({});
    EXPECT_TRUE(std::isnan(interval.low));
    EXPECT_TRUE(std::isnan(interval.high));
    EXPECT_FALSE(interval.exact);
}

TEST(MedianCi95, OrderStatisticsFromTheBinomial) {
    // P(B<=0) = 1/64 <= 0.025 for n = 6: k = 1.
    Interval six = median_ci95(one_to(6));
    EXPECT_EQ(six.low, 1);
    EXPECT_EQ(six.high, 6);
    EXPECT_TRUE(six.exact);
    // n = 8: P(B<=1) = 9/256 > 0.025, k = 1.
    EXPECT_EQ(median_ci95(one_to(8)).low, 1);
    EXPECT_EQ(median_ci95(one_to(8)).high, 8);
    // n = 9: P(B<=1) = 10/512 <= 0.025 < P(B<=2) = 46/512, k = 2.
    EXPECT_EQ(median_ci95(one_to(9)).low, 2);
    EXPECT_EQ(median_ci95(one_to(9)).high, 8);
    // n = 10: P(B<=1) = 11/1024, P(B<=2) = 56/1024: k = 2.
    EXPECT_EQ(median_ci95(one_to(10)).low, 2);
    EXPECT_EQ(median_ci95(one_to(10)).high, 9);
    // n = 20: k = 6; n = 30: k = 10; n = 100: k = 40 (standard tables).
    EXPECT_EQ(median_ci95(one_to(20)).low, 6);
    EXPECT_EQ(median_ci95(one_to(20)).high, 15);
    EXPECT_EQ(median_ci95(one_to(30)).low, 10);
    EXPECT_EQ(median_ci95(one_to(30)).high, 21);
    EXPECT_EQ(median_ci95(one_to(100)).low, 40);
    EXPECT_EQ(median_ci95(one_to(100)).high, 61);
}

TEST(MedianCi95, LargeSampleStaysFinite) {
    Interval interval = median_ci95(one_to(5000));
    EXPECT_TRUE(interval.exact);
    EXPECT_LT(interval.low, 2500);
    EXPECT_GT(interval.low, 2400);
    EXPECT_EQ(interval.low + interval.high, 5001);
}

TEST(RatioOfMedians, ConstantSamplesGiveADegenerateInterval) {
    RatioEstimate estimate = ratio_of_medians({2, 2, 2}, {1, 1, 1});
    EXPECT_EQ(estimate.ratio, 2);
    EXPECT_EQ(estimate.low, 2);
    EXPECT_EQ(estimate.high, 2);
}

TEST(RatioOfMedians, PercentilesOfResampledMedians) {
    // Resampled medians of {1,2,3} are 1, 2 or 3; each extreme has probability 7/27, far above
    // 2.5%, so the interval is exactly [1, 3].
    RatioEstimate estimate = ratio_of_medians({1, 2, 3}, {1});
    EXPECT_EQ(estimate.ratio, 2);
    EXPECT_EQ(estimate.low, 1);
    EXPECT_EQ(estimate.high, 3);
}

TEST(RatioOfMedians, DeterministicForAFixedSeed) {
    std::vector<double> a = {1.00, 1.10, 0.95, 1.02, 1.07, 0.99, 1.01};
    std::vector<double> b = {0.80, 0.83, 0.79, 0.90, 0.81, 0.82, 0.85};
    RatioEstimate first = ratio_of_medians(a, b);
    RatioEstimate second = ratio_of_medians(a, b);
    EXPECT_EQ(first.ratio, second.ratio);
    EXPECT_EQ(first.low, second.low);
    EXPECT_EQ(first.high, second.high);
    EXPECT_DOUBLE_EQ(first.ratio, 1.01 / 0.82);
    EXPECT_LE(first.low, first.ratio);
    EXPECT_GE(first.high, first.ratio);
    EXPECT_GT(first.low, 1.0);
}

TEST(RatioOfMedians, EmptyIsNaNAndNoResamplesIsThePoint) {
    EXPECT_TRUE(std::isnan(ratio_of_medians({}, {1}).ratio));
    EXPECT_TRUE(std::isnan(ratio_of_medians({1}, {}).low));
    RatioEstimate point = ratio_of_medians({3, 4, 5}, {2}, 0);
    EXPECT_EQ(point.ratio, 2);
    EXPECT_EQ(point.low, 2);
    EXPECT_EQ(point.high, 2);
}

}  // namespace
}  // namespace routetune
