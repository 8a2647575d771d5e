// Cancelling work with real processes: a Cancellation ends exactly the processes started on
// its thread (and refuses new ones), and LocalExecutor::cancel_build ends one build whose
// compiler (tests/fakes/fakecc with FAKECC_HANG_ON) waits on a `sleep 1000` child, leaving
// the other builds running and no child of this process behind, zombies included.
#include "study/local_executor.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "unit/study_bench.hpp"
#include "util/cancellation.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;
using Seconds = std::chrono::duration<double>;

// The processes whose parent is this one (what is left unreaped shows here, zombies too), but
// this process's guardian (util/process_guardian.hpp), which lives as long as it does.
std::vector<std::string> children_of_this_process() {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 2));
        char state = 0;
        long parent = 0;
        rest >> state >> parent;
        bool guardian = line.find("(routetune-guard)") != std::string::npos && state != 'Z';
        if (parent == getpid() && !guardian) found.push_back(line.substr(0, close + 1) + " " + state);
    }
    return found;
}

// Waits (up to 10 s) until every child of this process is gone; returns what is left.
std::vector<std::string> children_after_settling() {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::vector<std::string> left = children_of_this_process();
    while (!left.empty() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        left = children_of_this_process();
    }
    return left;
}

TEST(Cancellation, ACancelledThreadStartsNoProcess) {
    Cancellation cancellation;
    cancellation.cancel();
    CancellationScope scope(cancellation);
    ProcessSpec spec;
    spec.argv = {"true"};
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::SpawnFailed);
    EXPECT_NE(result.error.find("cancelled"), std::string::npos) << result.error;
}

TEST(Cancellation, CancelEndsTheRunningProcessOfItsThreadOnly) {
    Cancellation mine;
    Cancellation other;
    ProcessResult cancelled;
    ProcessResult spared;
    std::thread cancelled_thread([&] {
        CancellationScope scope(mine);
        ProcessSpec spec;
        spec.argv = {"sleep", "30"};
        cancelled = run_process(spec);
    });
    std::thread spared_thread([&] {
        CancellationScope scope(other);
        ProcessSpec spec;
        spec.argv = {"sleep", "1.5"};
        spared = run_process(spec);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto start = std::chrono::steady_clock::now();
    mine.cancel();
    cancelled_thread.join();
    EXPECT_LT(Seconds(std::chrono::steady_clock::now() - start).count(), 5);
    spared_thread.join();
    EXPECT_EQ(cancelled.outcome, ProcessOutcome::Signaled);
    EXPECT_TRUE(spared.succeeded()) << "another thread's process was killed too";
    EXPECT_EQ(children_after_settling(), std::vector<std::string>{});
}

class HangingBuilds : public ::testing::Test {
protected:
    void SetUp() override {
        bench.spec.compiler.path = std::string(ROUTETUNE_FAKES) + "/fakecc";
        bench.spec.build.env = {{"FAKECC_HANG_ON", "-a=1 -a=2"}};  // fakecc waits on `sleep 1000`
        evaluator = std::make_unique<Evaluator>(bench.spec, bench.adapter, bench.catalog, bench.paths,
                                                real_process_runner());
        executor = std::make_unique<LocalExecutor>(*evaluator);
    }

    fake::StudyBench bench;
    std::unique_ptr<Evaluator> evaluator;
    std::unique_ptr<LocalExecutor> executor;
};

TEST_F(HangingBuilds, CancellingOneBuildEndsItAloneAndLeavesNoChild) {
    JobId cancelled = executor->start_build(Route::parse("-a=1"), "fast");
    JobId spared = executor->start_build(Route::parse("-a=2"), "fast");
    EXPECT_EQ(executor->wait_any_for({cancelled, spared}, 0.5), std::nullopt) << "a hanging build finished";
    auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(executor->cancel_build(cancelled));
    BuiltCandidate built = executor->take_build(cancelled);
    EXPECT_LT(Seconds(std::chrono::steady_clock::now() - start).count(), 5) << "the build outlived its cancellation";
    EXPECT_EQ(built.evaluation.status, Status::BuildCrashed) << built.evaluation.message;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(executor->finished(spared)) << "cancelling one build ended another";
    EXPECT_FALSE(executor->cancel_build(cancelled)) << "a taken job cannot be cancelled";
    ASSERT_TRUE(executor->cancel_build(spared));
    executor->take_build(spared);
    EXPECT_EQ(children_after_settling(), std::vector<std::string>{});
}

TEST_F(HangingBuilds, AFinishedBuildIsNotCancelled) {
    JobId job = executor->start_build(Route::parse("-a=3"), "fast");  // no trigger: gcc fails at once on no input
    executor->wait(job);
    EXPECT_FALSE(executor->cancel_build(job));
    EXPECT_NE(executor->take_build(job).evaluation.status, Status::BuildCrashed);
}

}  // namespace
}  // namespace routetune
