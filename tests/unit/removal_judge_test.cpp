#include "study/removal_judge.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace routetune {
namespace {

/// Draws reference samples around 1 s and candidate samples `factor` times them; `later`
/// replaces factor from the second look on.
struct Scripted {
    double factor, later;
    int drawn = 0;
    bool operator()(int rounds, std::vector<double>& reference, std::vector<double>& candidate) {
        static const double kSpread[] = {1.00, 1.02, 0.98, 1.01, 0.99};
        for (int i = 0; i < rounds; ++i, ++drawn) {
            double ref = kSpread[drawn % 5];
            reference.push_back(ref);
            candidate.push_back(ref * (drawn < kJudgeRounds ? factor : later) * kSpread[(drawn + 2) % 5]);
        }
        return true;
    }
};

TEST(RemovalJudge, AClearlySlowerCandidateIsRefusedAfterOneLook) {
    Scripted draw{1.10, 1.10};
    EXPECT_TRUE(slower_with_confidence(std::ref(draw)));
    EXPECT_EQ(draw.drawn, kJudgeRounds);
}

TEST(RemovalJudge, ACandidateThatLooksNoSlowerIsAcceptedAfterOneLook) {
    Scripted draw{0.99, 1.10};
    EXPECT_FALSE(slower_with_confidence(std::ref(draw)));
    EXPECT_EQ(draw.drawn, kJudgeRounds);
}

TEST(RemovalJudge, ACandidateThatLooksSlowerWithoutConfidenceGetsAnotherLook) {
    Scripted slower{1.005, 1.10};
    EXPECT_TRUE(slower_with_confidence(std::ref(slower)));
    EXPECT_EQ(slower.drawn, 2 * kJudgeRounds);
    Scripted faster{1.005, 0.97};
    EXPECT_FALSE(slower_with_confidence(std::ref(faster)));
    EXPECT_EQ(faster.drawn, 2 * kJudgeRounds);
}

TEST(RemovalJudge, ACandidateThatStaysSlowerWithoutConfidenceIsAcceptedAfterTheLastLook) {
    Scripted draw{1.004, 1.004};
    EXPECT_FALSE(slower_with_confidence(std::ref(draw)));
    EXPECT_EQ(draw.drawn, kJudgeLooks * kJudgeRounds);
}

TEST(RemovalJudge, AFailedRunRefusesTheRemoval) {
    int calls = 0;
    auto failing = [&](int, std::vector<double>&, std::vector<double>&) { return ++calls > 5; };
    EXPECT_TRUE(slower_with_confidence(failing));
    EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace routetune
