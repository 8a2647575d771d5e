#include "report/knob_effects.hpp"

#include <gtest/gtest.h>

#include "report/html_chart_data.hpp"
#include "unit/sample_summary.hpp"

namespace routetune {
namespace {

// Every combination of -a=[x|y|unset] and -b=[on|unset]: -a=y makes runs 20% faster,
// -a=x 5% slower, -b does nothing; each time carries a small interval.
StudySummary factorial() {
    StudySummary s;
    s.study = "factorial";
    const char* a_values[] = {"", "-a=x", "-a=y"};
    const double a_factor[] = {1.0, 1.05, 0.8};
    const char* b_values[] = {"", "-b=on"};
    int k = 0;
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 2; ++b) {
            std::string route = std::string(a_values[a]) + (a && b ? " " : "") + b_values[b];
            Evaluation e = testing::evaluation(route.c_str(), "full", Status::Ok);
            double t = 0.1 * a_factor[a] * (1 + 0.002 * ((k++ % 3) - 1));
            e.timing = testing::timing(t, t * 0.995, t * 1.005);
            s.evaluations.push_back(e);
        }
    }
    s.default_evaluation = s.evaluations.front();
    Evaluation broken = testing::evaluation("-a=z", "full", Status::BuildFailed);
    s.evaluations.push_back(broken);
    return s;
}

TEST(KnobEffects, TheModelFindsTheValueThatMatteredAndIsUnsureOfNone) {
    auto effects = knob_effects(factorial());
    ASSERT_EQ(effects.size(), 3u) << "-a=x, -a=y, -b=on; -a=z has no ok route";
    EXPECT_EQ(effects[0].knob + "=" + effects[0].value, "-a=y");
    EXPECT_NEAR(effects[0].speedup, 1.25, 0.02);
    EXPECT_GT(effects[0].low, 1.2);
    EXPECT_LT(effects[0].high, 1.3);
    EXPECT_EQ(effects[0].routes, 2u);
    EXPECT_EQ(effects[1].value, "x");
    EXPECT_NEAR(effects[1].speedup, 1 / 1.05, 0.02);
    EXPECT_EQ(effects[2].knob, "-b");
    EXPECT_NEAR(effects[2].speedup, 1.0, 0.01);
    EXPECT_LE(effects[2].low, 1.0);
    EXPECT_GE(effects[2].high, 1.0);
    EXPECT_EQ(knob_effects(factorial(), 1).size(), 1u);
}

TEST(KnobEffects, NothingWithoutATimedDefault) {
    StudySummary s = factorial();
    s.default_evaluation.reset();
    EXPECT_TRUE(knob_effects(s).empty());
    s = factorial();
    s.evaluations.resize(1);
    EXPECT_TRUE(knob_effects(s).empty()) << "one ok route fits nothing";
}

TEST(ChartData, ProgressIsTheBestSpeedupAfterEachFinishedEvaluation) {
    auto data = chart_data(testing::sample_summary());
    // default 20 ms, then 25 ms, 16 ms, inaccurate, build_failed; the pending one is left out.
    ASSERT_EQ(data["progress"].size(), 5u);
    EXPECT_DOUBLE_EQ(data["progress"][0][1].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(data["progress"][1][1].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ(data["progress"][2][1].get<double>(), 1.25);
    EXPECT_DOUBLE_EQ(data["progress"][4][1].get<double>(), 1.25);
    ASSERT_EQ(data["routes"].size(), 3u);
    EXPECT_EQ(data["routes"][0]["route"], "-O=3");
    EXPECT_DOUBLE_EQ(data["routes"][0]["low"].get<double>(), 0.02 / 0.0165);
    EXPECT_EQ(data["samples"][0]["route"], "(default)");
    EXPECT_EQ(data["samples"][0]["ms"].size(), 3u);
    EXPECT_EQ(data["failures"]["phases"], nlohmann::json::array({"default", "fast"}));
    EXPECT_EQ(data["failures"]["statuses"][0]["status"], "ok");
    EXPECT_EQ(data["failures"]["statuses"][0]["counts"], nlohmann::json::array({1, 2}));
    EXPECT_EQ(data["confirmation"][0]["low"].get<double>(), 1.2);
}

// The per-trial view: every finished evaluation in finish order, a rejected one with its status
// and no speedup, a byte-identical one marked by its twin.
TEST(ChartData, TrialsAreEveryFinishedEvaluationInOrderWithFailuresMarked) {
    auto data = chart_data(testing::sample_with_default_twin());
    const auto& trials = data["trials"];
    ASSERT_EQ(trials.size(), 6u) << "the pending one is left out";
    for (std::size_t i = 0; i < trials.size(); ++i) EXPECT_EQ(trials[i][0], i + 1);
    EXPECT_EQ(trials[0][1], "(default)");
    EXPECT_DOUBLE_EQ(trials[0][3].get<double>(), 1.0) << "the default ran ok: it is 1, not rejected";
    EXPECT_DOUBLE_EQ(trials[2][3].get<double>(), 1.25);
    EXPECT_EQ(trials[4][1], "-march=native");
    EXPECT_EQ(trials[4][2], "build_failed");
    EXPECT_TRUE(trials[4][3].is_null());
    EXPECT_EQ(trials[5][4], "(default)");
    EXPECT_EQ(trials[2][4], "");
}

TEST(ChartData, RoutesWrapAtSpacesAndAreNeverCut) {
    EXPECT_EQ(wrap_route("-a=1 -b=2 -c=3", 9), (std::vector<std::string>{"-a=1 -b=2", "-c=3"}));
    EXPECT_EQ(wrap_route("-averylongknob=value -b=2", 5), (std::vector<std::string>{"-averylongknob=value", "-b=2"}));
    EXPECT_EQ(wrap_route("", 5), (std::vector<std::string>{""}));
}

}  // namespace
}  // namespace routetune
