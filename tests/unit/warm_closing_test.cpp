// What closing the warm measurement processes takes in a study's time plan (warm_closing_s):
// in each process (one per lane and, with lanes, the default's unpinned one) one more run of the
// default and its quit.
#include "eval/warm_measurements.hpp"

#include <gtest/gtest.h>

namespace routetune {
namespace {

TEST(WarmClosing, EachLanesProcessRunsTheDefaultOnceMoreAndQuits) {
    double one = warm_closing_s(1, 2.5);
    EXPECT_GT(one, 2.5) << "the default's last run, and the quit after it";
    EXPECT_DOUBLE_EQ(warm_closing_s(3, 2.5), 4 * one)
        << "the lanes' processes and the default's unpinned one close one after another";
    EXPECT_DOUBLE_EQ(warm_closing_s(0, 2.5), one) << "a study has at least one lane";
    EXPECT_DOUBLE_EQ(warm_closing_s(1, 4.0) - one, 1.5) << "a slower default makes the closing slower by as much";
}

}  // namespace
}  // namespace routetune
