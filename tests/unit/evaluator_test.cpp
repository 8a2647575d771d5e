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

namespace fs = std::filesystem;

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

TEST_F(Evaluate, BuildsYieldTheCpuByTheSpecsNiceAndRunsKeepTheTunersPriority) {
    bench.spec.build.nice = 4;
    evaluate("-a=1", bench.baseline(0.5));
    int builds = 0, runs = 0;
    for (const auto& call : bench.runner.calls()) {
        EXPECT_EQ(call.spec.nice_increment, call.build ? 4 : 0) << (call.build ? "build" : "run");
        ++(call.build ? builds : runs);
    }
    EXPECT_EQ(builds, 1);
    EXPECT_GE(runs, 1);
}

TEST_F(Evaluate, EachBuildIsToldHowManyBuildsRunAtOnceAndNoRunIs) {
    evaluator = bench.evaluator();
    evaluator->set_builds_at_once(4);
    evaluator->measure(evaluator->build(Route::parse("-a=1"), "fast"), bench.baseline(0.5));
    evaluator->set_builds_at_once(0);
    evaluator->build(Route::parse("-a=2"), "fast");
    std::vector<std::string> told;
    int runs = 0;
    for (const auto& call : bench.runner.calls()) {
        auto variable = call.spec.env.find(kBuildsAtOnceVariable);
        if (call.build) {
            told.push_back(variable == call.spec.env.end() ? "unset" : variable->second);
        } else {
            EXPECT_EQ(variable, call.spec.env.end()) << "a run is not a build";
            ++runs;
        }
    }
    EXPECT_EQ(told, (std::vector<std::string>{"4", "1"})) << "0 builds at once means one";
    EXPECT_GE(runs, 1);
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

// "C:x" for the candidate's run of case x, "D:y" for the default's run of case y, in call order.
std::vector<std::string> run_order(const fake::CommandRunner& runner, const std::string& candidate) {
    std::vector<std::string> order;
    for (const auto& call : runner.calls()) {
        if (call.build) continue;
        order.push_back((call.flags == candidate ? "C:" : call.flags.empty() ? "D:" : "?:") + call.spec.argv.back());
    }
    return order;
}

TEST_F(Evaluate, PairedRoundsAlternateWhoRunsFirstAndEveryCaseSitsNextToTheDefaults) {
    two_cases();
    bench.spec.timing.warmup = 1;
    bench.spec.timing.repeats = 3;
    bench.runner.routes[""].run_times = {0.2, 0.4};     // the default: x, then y, in every round
    bench.runner.routes["-a=1"].run_times = {0.1, 0.3};
    evaluator = bench.evaluator();
    RunBaseline baseline = bench.baseline();
    baseline.paired_default = evaluator->build(Route{}, "default");
    BuiltCandidate built = evaluator->build(Route::parse("-a=1"), "fast");
    Evaluation e = evaluator->measure(built, baseline);
    ASSERT_EQ(e.status, Status::Ok) << e.message;
    std::vector<std::string> expected{
        "C:x", "D:x", "C:y", "D:y",  // the warm-up round (before the first measured one: the candidate first)
        "D:x", "C:x", "D:y", "C:y",  // measured round 0: the default first
        "C:x", "D:x", "C:y", "D:y",  // round 1: the candidate first
        "D:x", "C:x", "D:y", "C:y",  // round 2
    };
    EXPECT_EQ(run_order(bench.runner, "-a=1"), expected);
    ASSERT_EQ(e.paired.default_s.size(), 3u);
    ASSERT_EQ(e.paired.candidate_s.size(), 3u);
    for (double t : e.paired.default_s) EXPECT_NEAR(t, 0.6, 1e-12) << "each round's default runs, summed";
    for (double t : e.paired.candidate_s) EXPECT_NEAR(t, 0.4, 1e-12);
    EXPECT_NEAR(paired_speedup(e.paired)->speedup, 1.5, 1e-12);
    ASSERT_EQ(e.timing.samples_s.size(), 3u) << "the candidate's own samples stay as they were";
    fs::path candidate_output, default_output;
    for (const auto& call : bench.runner.calls()) {
        if (call.build) continue;
        (call.flags.empty() ? default_output : candidate_output) = call.spec.stdout_file;
    }
    EXPECT_EQ(candidate_output.parent_path(), built.workdir);
    EXPECT_NE(default_output.parent_path(), baseline.paired_default->workdir)
        << "never into the default's own folder, which every lane shares";
    EXPECT_EQ(default_output.parent_path().parent_path(), built.workdir.parent_path());
    EXPECT_EQ(default_output.string().size(), candidate_output.string().size())
        << "equally long paths: the two runs' argv and stacks are alike";
    EXPECT_FALSE(fs::exists(default_output.parent_path())) << "removed once measured";
}

// A component-failure case is never part of a time: the candidate runs it once, in the first
// round, and the paired default never runs it (a partner's failing run would end the pairing).
TEST_F(Evaluate, AComponentFailureCaseIsRunOnceAndNeverPaired) {
    two_cases();
    bench.spec.cases[1].case_class = "component-failure";
    bench.spec.timing.warmup = 1;
    bench.spec.timing.repeats = 3;
    evaluator = bench.evaluator();
    RunBaseline baseline = bench.baseline();
    baseline.paired_default = evaluator->build(Route{}, "default");
    Evaluation e = evaluator->measure(evaluator->build(Route::parse("-a=1"), "fast"), baseline);
    ASSERT_EQ(e.status, Status::Ok) << e.message;
    std::vector<std::string> expected{"C:x", "D:x", "C:y", "D:x", "C:x", "C:x", "D:x", "D:x", "C:x"};
    EXPECT_EQ(run_order(bench.runner, "-a=1"), expected);
    EXPECT_EQ(e.paired.default_s.size(), 3u) << "still paired, round by round";
    EXPECT_EQ(e.timing.samples_s.size(), 3u);
}

TEST_F(Evaluate, APairedDefaultRunsWhereItsCandidateRuns) {
    evaluator = bench.evaluator();
    RunBaseline baseline = bench.baseline();
    baseline.paired_default = evaluator->build(Route{}, "default");
    BuiltCandidate built = evaluator->build(Route::parse("-a=1"), "fast");
    built.placement["CUDA_VISIBLE_DEVICES"] = "1";
    EXPECT_EQ(evaluator->measure(built, baseline).status, Status::Ok);
    std::size_t runs = 0;
    for (const auto& call : bench.runner.calls()) {
        if (call.build) continue;
        ++runs;
        EXPECT_EQ(call.spec.env.at("CUDA_VISIBLE_DEVICES"), "1") << (call.flags.empty() ? "the default" : call.flags);
    }
    EXPECT_EQ(runs, 6u) << "3 rounds of the candidate and 3 of the default";
}

TEST_F(Evaluate, TheDefaultsOwnMeasurementIsPairedWithItself) {
    bench.spec.timing.repeats = 5;
    evaluator = bench.evaluator();
    RunBaseline baseline = bench.baseline();
    baseline.paired_self = true;
    Evaluation e = evaluator->measure(evaluator->build(Route{}, "default"), baseline);
    EXPECT_EQ(e.status, Status::Ok);
    EXPECT_EQ(run_order(bench.runner, "-a=1").size(), 10u) << "5 paired rounds of one build";
    EXPECT_EQ(e.paired.default_s.size(), 5u);
    EXPECT_EQ(e.timing.samples_s.size(), 5u);
}

TEST_F(Evaluate, TheDefaultsRecordKeepsItsBuildsFirstRunApartFromTheMedian) {
    bench.spec.timing.repeats = 3;
    bench.runner.routes[""].run_times = {6, 1, 1.5, 1, 1, 1};
    evaluator = bench.evaluator();
    RunBaseline baseline = bench.baseline();
    baseline.default_case_s.clear();  // the default's own measurement: no relative timeout yet
    baseline.paired_self = true;
    DefaultRecord record;
    ASSERT_EQ(evaluator->measure(evaluator->build(Route{}, "default"), baseline, &record).status, Status::Ok);
    const std::string name = bench.spec.cases.at(0).name;
    ASSERT_EQ(record.first_wall_s.count(name), 1u);
    EXPECT_DOUBLE_EQ(record.first_wall_s.at(name), 6) << "the partner's first run is the build's first (it loads it)";
    EXPECT_DOUBLE_EQ(record.wall_s.at(name), 1) << "the measured runs' median: 1.5, 1, 1";
    DefaultRecord unpaired;
    baseline.paired_self = false;
    bench.runner.routes[""].run_times = {4, 2, 2};
    ASSERT_EQ(evaluator->measure(evaluator->build(Route{}, "default"), baseline, &unpaired).status, Status::Ok);
    ASSERT_EQ(unpaired.first_wall_s.count(name), 1u);
    EXPECT_DOUBLE_EQ(unpaired.first_wall_s.at(name), 4) << "timed alone, its own first run";
}

TEST_F(Evaluate, ADefaultRunThatFailsEndsThePairingNotTheCandidate) {
    evaluator = bench.evaluator();
    RunBaseline baseline = bench.baseline();
    baseline.paired_default = evaluator->build(Route{}, "default");
    bench.runner.routes[""].run_exit = 3;
    Evaluation e = evaluator->measure(evaluator->build(Route::parse("-a=1"), "fast"), baseline);
    EXPECT_EQ(e.status, Status::Ok);
    EXPECT_FALSE(e.paired.has_pairs()) << "timed unpaired";
    EXPECT_NE(e.message.find("timed unpaired"), std::string::npos) << e.message;
    EXPECT_EQ(run_order(bench.runner, "-a=1").size(), 4u) << "one failed default run, then the 3 rounds alone";
}

// The machine speeds up run by run (drift_per_run), the two builds take the same time: timed
// alone after the default, the route looks faster; paired, it does not.
TEST_F(Evaluate, DriftThatManufacturesAnUnpairedGainLeavesThePairedIntervalOnOne) {
    bench.spec.timing.repeats = 7;
    bench.runner.drift_per_run = 0.01;
    evaluator = bench.evaluator();
    RunBaseline alone = bench.baseline();
    Evaluation d = evaluator->measure(evaluator->build(Route{}, "default"), alone);
    RunBaseline paired = bench.baseline();
    paired.paired_default = evaluator->build(Route{}, "default");
    Evaluation e = evaluator->measure(evaluator->build(Route::parse("-a=1"), "fast"), paired);
    auto with_pairs = speedup_against_default(e, d);
    ASSERT_TRUE(with_pairs.has_value());
    EXPECT_TRUE(with_pairs->paired);
    EXPECT_LE(with_pairs->ci_low, 1.0);
    EXPECT_GE(with_pairs->ci_high, 1.0);
    e.paired = {};
    auto without = speedup_against_default(e, d);
    EXPECT_GT(without->ci_low, 1.02) << "unpaired, the drift reads as a gain above min_gain";
}

}  // namespace
}  // namespace routetune
