// The winner's changes cut into blocks along the search's chain of growing routes.
#include "study/change_blocks.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "search_fixtures.hpp"

namespace routetune {
namespace {

Observation measured(const std::string& route, double median_s) { return ok(Route::parse(route), median_s); }

TEST(ChangeBlocks, StepsOfTheChainAreBlocksAndThoseThatDidNotPayComeFirst) {
    // A growing search: the default, then +a +b (4% faster: intervals +-1% apart), then +c +d
    // (as fast), then +e (20% faster); a rejected group +x on the way; the winner holds all five.
    std::vector<Observation> history{measured("", 1.0), measured("-a=1 -b=1", 0.96), measured("-a=1 -b=1 -x=1", 1.5),
                                     measured("-a=1 -b=1 -c=1 -d=1", 0.961), measured("-a=1 -b=1 -c=1 -d=1 -e=1", 0.8)};
    Route winner = Route::parse("-a=1 -b=1 -c=1 -d=1 -e=1");
    std::vector<ChangeBlock> blocks = change_blocks(winner, Route{}, history);
    ASSERT_EQ(blocks.size(), 3u);
    EXPECT_EQ(blocks[0].knobs, (std::vector<std::string>{"-c", "-d"}));
    EXPECT_FALSE(blocks[0].paid);
    EXPECT_EQ(blocks[1].knobs, (std::vector<std::string>{"-a", "-b"}));
    EXPECT_TRUE(blocks[1].paid);
    EXPECT_NEAR(blocks[1].gain, std::log(1.0 / 0.96), 1e-12);
    EXPECT_EQ(blocks[2].knobs, (std::vector<std::string>{"-e"}));
    EXPECT_TRUE(blocks[2].paid);
}

TEST(ChangeBlocks, AnIncumbentThatHeldAnotherValueOfAKnobStillLinksTheChain) {
    // -s=1 was swapped for -s=2 at the end; the earlier routes share the winner's other changes.
    std::vector<Observation> history{measured("", 1.0), measured("-a=1 -s=1", 0.9), measured("-a=1 -b=1 -s=1", 0.9),
                                     measured("-a=1 -b=1 -s=2", 0.85)};
    Route winner = Route::parse("-a=1 -b=1 -s=2");
    std::vector<ChangeBlock> blocks = change_blocks(winner, Route{}, history);
    ASSERT_EQ(blocks.size(), 3u) << "three steps: +a, +b, s=2";
    std::size_t knobs = 0;
    for (const auto& block : blocks) knobs += block.knobs.size();
    EXPECT_EQ(knobs, 3u);
    EXPECT_EQ(blocks.front().knobs, (std::vector<std::string>{"-b"})) << "the step that did not pay";
}

TEST(ChangeBlocks, ChangesTheHistoryNeverShowsAreBlocksOfTheirOwn) {
    std::vector<ChangeBlock> blocks = change_blocks(Route::parse("-a=1 -b=2"), Route{}, {measured("", 1.0)});
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_TRUE(blocks[0].paid && blocks[1].paid);
}


TEST(ChangeBlocks, AStepThatDidNotPayComesBeforeOneThatPaidLessButSurely) {
    // +a +b gains 1.5% measured tightly (+-0.2%): paid; +c +d gains 3% measured loosely (+-5%):
    // its interval reaches the route before it, so it did not pay, and it is tried first.
    auto measured_within = [](const std::string& route, double median, double half) {
        Observation obs = ok(Route::parse(route), median);
        obs.ci_low_s = median * (1 - half), obs.ci_high_s = median * (1 + half);
        return obs;
    };
    std::vector<Observation> history{measured_within("", 1.0, 0.002), measured_within("-a=1 -b=1", 0.985, 0.002),
                                     measured_within("-a=1 -b=1 -c=1 -d=1", 0.955, 0.05)};
    std::vector<ChangeBlock> blocks = change_blocks(Route::parse("-a=1 -b=1 -c=1 -d=1"), Route{}, history);
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].knobs, (std::vector<std::string>{"-c", "-d"}));
    EXPECT_FALSE(blocks[0].paid);
    EXPECT_TRUE(blocks[1].paid);
}

}  // namespace
}  // namespace routetune
