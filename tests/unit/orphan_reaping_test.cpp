// Adopted orphans: routetune is a child subreaper, so a grandchild whose parent exits becomes
// its child. One that ends must be reaped by the process-tree scan (a zombie left behind made
// every later scan look again, 8 passes each), and reaping orphans must never take the exit
// status of a child another thread is waiting for.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "util/process.hpp"

namespace routetune {
namespace {

/// Zombies in /proc whose parent is this process.
std::vector<pid_t> zombie_children() {
    std::vector<pid_t> zombies;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(entry.path() / "stat");
        std::string line;
        std::getline(in, line);
        std::size_t paren = line.rfind(')');
        if (paren == std::string::npos || paren + 4 >= line.size()) continue;
        char state = line[paren + 2];
        pid_t parent = static_cast<pid_t>(std::stol(line.substr(paren + 4)));
        if (state == 'Z' && parent == getpid()) zombies.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return zombies;
}

/// A child that leaves a short-lived grandchild behind: the subshell exits at once, so the
/// grandchild is re-parented to this process, where it ends while the child still sleeps.
ProcessSpec child_leaving_an_orphan(int exit_code) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", "(true &); sleep 0.05; exit " + std::to_string(exit_code)};
    return spec;
}

TEST(OrphanReaping, AnOrphanThatEndedIsReapedByTheScan) {
    ASSERT_TRUE(zombie_children().empty());
    ProcessResult result = run_process(child_leaving_an_orphan(0));
    EXPECT_TRUE(result.succeeded()) << result.error;
    EXPECT_TRUE(zombie_children().empty()) << zombie_children().size() << " zombie(s) left with this process as parent";
}

TEST(OrphanReaping, ThreadsKeepTheirOwnChildrensExitCodes) {
    constexpr int threads = 4, runs = 25;
    std::vector<int> wrong(threads, 0);
    std::vector<std::string> errors(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([t, &wrong, &errors] {
            for (int i = 0; i < runs; ++i) {
                int code = 10 * (t + 1) + i % 7;
                ProcessSpec spec = child_leaving_an_orphan(code);
                spec.argv[2] = "(true &); exit " + std::to_string(code);  // no sleep: exits race the scans
                ProcessResult result = run_process(spec);
                if (result.outcome != ProcessOutcome::Exited || result.exit_code != code) {
                    ++wrong[t];
                    errors[t] = result.error;
                }
            }
        });
    }
    for (auto& thread : pool) thread.join();
    for (int t = 0; t < threads; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t << ": " << errors[t];
    EXPECT_TRUE(zombie_children().empty());
}

}  // namespace
}  // namespace routetune
