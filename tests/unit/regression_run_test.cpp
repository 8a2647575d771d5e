// The regression run that promotion, verify --rerun and review rest on, over the fake command
// runner (no process starts): both routes built afresh, every case gated by its own class's
// threshold through the one per-case gate, and the interleaved A/B held to the one winner rule.
#include "govern/regression_run.hpp"

#include <gtest/gtest.h>

#include "unit/study_bench.hpp"

namespace routetune {
namespace {

class Regression : public ::testing::Test {
protected:
    RegressionOutcome check(const std::string& route) {
        RegressionRun run(bench.spec, bench.adapter, bench.catalog, bench.paths, bench.runner);
        return run.run(Route::parse(route), RegressionOptions{});
    }

    static std::string failures(const RegressionOutcome& outcome) {
        std::string text;
        for (const auto& failure : outcome.failures) text += failure + "\n";
        return text;
    }

    fake::StudyBench bench;
};

TEST_F(Regression, AFasterCorrectRoutePassesWithItsGainConfirmed) {
    bench.runner.routes["-a=1"].run_s = 0.05;
    RegressionOutcome outcome = check("-a=1");
    EXPECT_TRUE(outcome.passed()) << failures(outcome);
    EXPECT_TRUE(outcome.gain_confirmed);
    ASSERT_EQ(outcome.cases.size(), 1u);
    EXPECT_EQ(outcome.cases[0].status, Status::Ok);
    ASSERT_TRUE(outcome.confirmation);
    EXPECT_DOUBLE_EQ(outcome.confirmation->speedup, 2.0);
    EXPECT_EQ(outcome.builds, 2u);
}

TEST_F(Regression, ARouteNoFasterThanTheDefaultFailsWithTheGainVanished) {
    RegressionOutcome outcome = check("-a=1");
    EXPECT_FALSE(outcome.gain_confirmed);
    EXPECT_FALSE(outcome.passed());
    EXPECT_NE(failures(outcome).find("the gain vanished"), std::string::npos) << failures(outcome);
}

// One output, 1e-3 off the default's: within the global threshold for a normal case, over the
// boundary class's own. The boundary case alone fails, naming its class and threshold, and the
// A/B is not run for a route that fails a case.
TEST_F(Regression, EachCaseIsGatedByItsOwnClassThreshold) {
    bench.spec.accuracy.threshold = 1e-2;
    bench.spec.accuracy.classes["boundary"].threshold = 1e-9;
    CaseSpec typical{"typical", {}, {}, {"typical"}};
    CaseSpec edge{"edge", {}, {}, {"edge"}, "boundary"};
    bench.spec.cases = {typical, edge};
    bench.runner.routes["-a=1"].run_s = 0.05;
    bench.runner.routes["-a=1"].outputs = {{"typical", "42.042\n"}, {"edge", "42.042\n"}};
    RegressionOutcome outcome = check("-a=1");
    ASSERT_EQ(outcome.cases.size(), 2u);
    EXPECT_EQ(outcome.cases[0].status, Status::Ok) << outcome.cases[0].message;
    EXPECT_EQ(outcome.cases[0].threshold, 1e-2);
    EXPECT_EQ(outcome.cases[1].status, Status::Inaccurate);
    EXPECT_EQ(outcome.cases[1].threshold, 1e-9);
    ASSERT_EQ(outcome.failures.size(), 1u) << failures(outcome);
    EXPECT_NE(outcome.failures[0].find("case 'edge' (boundary): inaccurate"), std::string::npos) << outcome.failures[0];
    EXPECT_NE(outcome.failures[0].find("(threshold 1e-09)"), std::string::npos) << outcome.failures[0];
    EXPECT_FALSE(outcome.confirmation) << "no A/B for a route that fails a case";
}

}  // namespace
}  // namespace routetune
