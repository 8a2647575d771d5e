// The evaluation's rules (docs/design.md, "A study" 3-5): a run is cut at relative_timeout x the
// default route's time for that case (never below 1 s, never above the fixed timeout); every
// case is checked against its own reference and one failing case makes the route inaccurate,
// with every case's loss recorded; a repeat's sample is the sum of its cases' times, from the
// spec's timing source. The Evaluator runs over the fake command runner; no process starts.
#include "eval/evaluator.hpp"

#include <gtest/gtest.h>

#include "unit/study_bench.hpp"

namespace routetune {
namespace {

class Evaluate : public ::testing::Test {
protected:
    Evaluation evaluate(const std::string& route, const RunBaseline& baseline) {
        evaluator = bench.evaluator();
        return evaluator->measure(evaluator->build(Route::parse(route), "fast"), baseline);
    }

    double run_timeout_given(const std::string& route) const {
        for (const auto& call : bench.runner.calls()) {
            if (!call.build && call.flags == route) return call.spec.timeout_s;
        }
        return -1;
    }

    void two_cases() {
        CaseSpec x, y;
        x.name = "x";
        x.args = {"x"};
        y.name = "y";
        y.args = {"y"};
        bench.spec.cases = {x, y};
    }

    fake::StudyBench bench;
    std::unique_ptr<Evaluator> evaluator;
};

TEST_F(Evaluate, ARunIsCutAtRelativeTimeoutTimesTheDefaultsTime) {
    bench.spec.run.relative_timeout = 4;
    bench.runner.routes["-a=1"].run_s = 3;
    Evaluation slow = evaluate("-a=1", bench.baseline(0.5));
    EXPECT_DOUBLE_EQ(run_timeout_given("-a=1"), 2.0) << "4 x 0.5 s";
    EXPECT_EQ(slow.status, Status::RunTimeout);
    bench.runner.routes["-a=2"].run_s = 1.5;
    EXPECT_EQ(evaluate("-a=2", bench.baseline(0.5)).status, Status::Ok) << "1.5 s is within 2 s";
}

TEST_F(Evaluate, TheRelativeTimeoutIsAtLeastOneSecondAndAtMostTheFixedOne) {
    bench.spec.run.relative_timeout = 4;
    evaluate("-a=1", bench.baseline(0.01));
    EXPECT_DOUBLE_EQ(run_timeout_given("-a=1"), 1.0) << "4 x 0.01 s is raised to 1 s";
    bench.spec.run.timeout_s = 1.5;
    evaluate("-a=2", bench.baseline(0.5));
    EXPECT_DOUBLE_EQ(run_timeout_given("-a=2"), 1.5) << "the fixed timeout is below 4 x 0.5 s";
    bench.spec.run.relative_timeout = 0;
    evaluate("-a=3", bench.baseline(0.01));
    EXPECT_DOUBLE_EQ(run_timeout_given("-a=3"), 1.5) << "relative_timeout = 0 disables it";
}

TEST_F(Evaluate, ARouteTheCompilerWouldOverrideIsRouteConflictAndIsNotBuilt) {
    bench.adapter.conflicts["-b=on"] = KnobConflict{"-b", "on", "off", {"-a=0"}, false};
    evaluator = bench.evaluator();
    Evaluation refused = evaluator->build(Route::parse("-b=on"), "fast").evaluation;
    EXPECT_EQ(refused.status, Status::RouteConflict);
    EXPECT_EQ(refused.message, "fake would not build the route as recorded: -b=on ends as off in fake's report, "
                               "overridden by -a=0");
    EXPECT_EQ(evaluator->build(Route::parse("-a=1"), "fast").evaluation.status, Status::Pending);
    int checks = bench.adapter.checks;
    EXPECT_EQ(evaluator->build(Route(), "default").evaluation.status, Status::Pending);
    EXPECT_EQ(bench.adapter.checks, checks) << "the default route is never checked";
    std::vector<std::string> built;
    for (const auto& call : bench.runner.calls()) {
        if (call.build) built.push_back(call.flags);
    }
    EXPECT_EQ(built, (std::vector<std::string>{"-a=1", ""}));
}

TEST_F(Evaluate, OneInaccurateCaseMakesTheRouteInaccurateAndEveryLossIsRecorded) {
    two_cases();
    bench.spec.accuracy.metric = "rel_l2";
    bench.spec.accuracy.threshold = 0.015;
    // y's loss is |43 - 42| / 42 = 0.0238 > 0.015; the mean over the cases (0.0119) would pass.
    bench.runner.routes["-a=1"].outputs = {{"x", "42\n"}, {"y", "43\n"}};
    Evaluation e = evaluate("-a=1", bench.baseline());
    EXPECT_EQ(e.status, Status::Inaccurate);
    ASSERT_EQ(e.cases.size(), 2u);
    EXPECT_EQ(e.cases[0].status, Status::Ok);
    EXPECT_DOUBLE_EQ(e.cases[0].loss, 0.0);
    EXPECT_EQ(e.cases[1].status, Status::Inaccurate);
    EXPECT_NEAR(e.cases[1].loss, 1.0 / 42, 1e-12);
    EXPECT_NE(e.message.find("case 'y'"), std::string::npos) << e.message;
}

TEST_F(Evaluate, TheFirstCaseFailingIsCaughtToo) {
    two_cases();
    bench.spec.accuracy.threshold = 0.015;
    bench.runner.routes["-a=1"].outputs = {{"x", "43\n"}, {"y", "42\n"}};
    EXPECT_EQ(evaluate("-a=1", bench.baseline()).status, Status::Inaccurate);
}

TEST_F(Evaluate, EveryCasePassingIsOkAndASampleIsTheSumOfTheCases) {
    two_cases();
    bench.spec.timing.warmup = 1;
    bench.spec.timing.repeats = 4;
    bench.runner.routes["-a=1"].run_times = {0.1, 0.2};  // x, then y, in every round
    Evaluation e = evaluate("-a=1", bench.baseline());
    EXPECT_EQ(e.status, Status::Ok);
    ASSERT_EQ(e.timing.samples_s.size(), 4u) << "warm-ups are discarded";
    for (double sample : e.timing.samples_s) EXPECT_NEAR(sample, 0.3, 1e-12);
    EXPECT_NEAR(e.cases[1].timing.median_s, 0.2, 1e-12);
}

TEST_F(Evaluate, CpuTimingTakesTheProcesssCpuTimeNotItsWallTime) {
    bench.spec.timing.source = "cpu";
    bench.runner.routes["-a=1"].run_s = 0.5;
    bench.runner.routes["-a=1"].cpu_s = 0.125;
    Evaluation e = evaluate("-a=1", bench.baseline());
    EXPECT_EQ(e.status, Status::Ok);
    EXPECT_DOUBLE_EQ(e.timing.median_s, 0.125);
}

TEST_F(Evaluate, AFailedBuildIsAStatusAndNothingRuns) {
    bench.runner.routes["-a=1"].build_exit = 1;
    Evaluation e = evaluate("-a=1", bench.baseline());
    EXPECT_EQ(e.status, Status::BuildFailed);
    EXPECT_NE(e.message.find("exited with code 1"), std::string::npos) << e.message;
    EXPECT_EQ(run_timeout_given("-a=1"), -1) << "no run";
}

}  // namespace
}  // namespace routetune
