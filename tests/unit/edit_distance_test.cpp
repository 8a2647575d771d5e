#include <gtest/gtest.h>

#include "util/edit_distance.hpp"

namespace routetune {
namespace {

TEST(EditDistance, KnownDistances) {
    EXPECT_EQ(edit_distance("", ""), 0u);
    EXPECT_EQ(edit_distance("abc", ""), 3u);
    EXPECT_EQ(edit_distance("", "abcd"), 4u);
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("-funrol-loops", "-funroll-loops"), 1u);
    EXPECT_EQ(edit_distance("repeat", "repeats"), 1u);
    EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
}

}  // namespace
}  // namespace routetune
