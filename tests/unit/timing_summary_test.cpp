// The summary of a sample: its samples, median and 95% interval of the median (hand-computed).
#include <gtest/gtest.h>

#include "routetune/evaluation.hpp"

namespace routetune {
namespace {

TEST(Summarize, FillsMedianAndInterval) {
    TimingSummary summary = summarize({0.9, 0.3, 0.5, 0.1, 0.7, 0.2, 0.8, 0.4, 0.6});
    EXPECT_EQ(summary.samples_s.size(), 9u);
    EXPECT_EQ(summary.samples_s[0], 0.9);
    EXPECT_EQ(summary.median_s, 0.5);
    EXPECT_EQ(summary.ci_low_s, 0.2);
    EXPECT_EQ(summary.ci_high_s, 0.8);
}

}  // namespace
}  // namespace routetune
