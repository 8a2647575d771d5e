// The ProcessRunner seam: the real runner starts processes, the fake records and answers.
#include "util/process_runner.hpp"

#include <gtest/gtest.h>

namespace routetune {
namespace {

TEST(RealProcessRunner, RunsTheProcess) {
    RealProcessRunner runner;
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "echo real; exit 4"};
    ProcessResult result = runner.run(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::Exited);
    EXPECT_EQ(result.exit_code, 4);
    EXPECT_EQ(result.out, "real\n");
}

TEST(FakeProcessRunner, DefaultAnswerIsSuccessAndCallsAreRecorded) {
    FakeProcessRunner runner;
    ProcessSpec spec;
    spec.argv = {"gcc", "-O2"};
    EXPECT_TRUE(runner.run(spec).succeeded());
    spec.argv = {"./a.out"};
    EXPECT_TRUE(runner.run(spec).succeeded());
    ASSERT_EQ(runner.calls().size(), 2u);
    EXPECT_EQ(runner.calls()[0].argv, (std::vector<std::string>{"gcc", "-O2"}));
    EXPECT_EQ(runner.calls()[1].argv, (std::vector<std::string>{"./a.out"}));
}

TEST(FakeProcessRunner, AnswersFromTheResponder) {
    FakeProcessRunner runner([](const ProcessSpec& spec) {
        return spec.argv[0] == "gcc" ? exited_with(1, "", "error: bad flag") : exited_with(0, "42\n");
    });
    ProcessSpec build;
    build.argv = {"gcc"};
    ProcessResult failed = runner.run(build);
    EXPECT_EQ(failed.exit_code, 1);
    EXPECT_EQ(failed.err, "error: bad flag");
    ProcessSpec run;
    run.argv = {"prog"};
    EXPECT_EQ(runner.run(run).out, "42\n");
}

}  // namespace
}  // namespace routetune
