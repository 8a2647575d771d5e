// The ProcessRunner seam: the real runner starts processes; the fake (fake_command_runner.hpp)
// starts none and answers builds and runs from a script.
#include "util/process_runner.hpp"

#include <gtest/gtest.h>

#include "unit/fake_command_runner.hpp"
#include "util/files.hpp"

namespace routetune {
namespace {

TEST(RealProcessRunner, RunsTheProcess) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "echo real; exit 4"};
    ProcessResult result = real_process_runner().run(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::Exited);
    EXPECT_EQ(result.exit_code, 4);
    EXPECT_EQ(result.out, "real\n");
}

TEST(FakeCommandRunner, ABuildWritesItsFlagsAndARunOfTheArtifactAnswersForThem) {
    auto dir = make_scratch_folder(std::filesystem::temp_directory_path(), "routetune-fake-");
    fake::CommandRunner runner;
    runner.routes["-a=1"].outputs[""] = "7\n";
    runner.routes["-a=1"].run_s = 0.25;
    ProcessSpec build;
    build.argv = {"fakecc", "-a=1", "-o", (dir / "artifact").string()};
    EXPECT_TRUE(runner.run(build).succeeded());
    ProcessSpec run;
    run.argv = {(dir / "artifact").string()};
    ProcessResult result = runner.run(run);
    EXPECT_EQ(result.out, "7\n");
    EXPECT_DOUBLE_EQ(result.wall_s, 0.25);
    EXPECT_DOUBLE_EQ(runner.take_elapsed(), 1.25) << "a build of 1 s, a run of 0.25 s";
    run.timeout_s = 0.1;
    EXPECT_EQ(runner.run(run).outcome, ProcessOutcome::TimedOut);
    ASSERT_EQ(runner.calls().size(), 3u);
    EXPECT_TRUE(runner.calls()[0].build);
    EXPECT_EQ(runner.calls()[1].flags, "-a=1");
    remove_tree_quietly(dir);
}

}  // namespace
}  // namespace routetune
