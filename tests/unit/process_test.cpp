// run_process against real child programs (/bin/sh as a child creates the behaviours; the
// tool itself never runs a shell).
#include "util/process.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "util/files.hpp"
#include "util/interrupt_guard.hpp"
#include "util/process_guardian.hpp"
#include "util/process_tree.hpp"

namespace routetune {
namespace {

ProcessSpec shell(const std::string& script) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    return spec;
}

std::filesystem::path scratch(const std::string& name) {
    std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                   ("process_test_" + std::to_string(getpid()) + "_" + name);
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    return folder;
}

/// The state letter from /proc/PID/stat ('Z' for a zombie), or '?' when unreadable.
char process_state(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(in, line);
    std::size_t paren = line.rfind(')');
    return paren != std::string::npos && paren + 2 < line.size() ? line[paren + 2] : '?';
}

TEST(RunProcess, ExitCodeZeroSucceeds) {
    ProcessSpec spec;
    spec.argv = {"true"};
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::Exited);
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_TRUE(result.succeeded());
}

TEST(RunProcess, NonZeroExitCode) {
    ProcessResult result = run_process(shell("exit 42"));
    EXPECT_EQ(result.outcome, ProcessOutcome::Exited);
    EXPECT_EQ(result.exit_code, 42);
    EXPECT_FALSE(result.succeeded());
}

TEST(RunProcess, CapturesStdoutAndStderrSeparately) {
    ProcessResult result = run_process(shell("echo out; echo err >&2; echo more"));
    EXPECT_EQ(result.out, "out\nmore\n");
    EXPECT_EQ(result.err, "err\n");
    EXPECT_FALSE(result.out_truncated);
    EXPECT_FALSE(result.err_truncated);
}

TEST(RunProcess, ArgumentsAreNotInterpretedByAShell) {
    ProcessSpec spec;
    spec.argv = {"/bin/echo", "$HOME", "a;b", "`x`", "*"};
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.out, "$HOME a;b `x` *\n");
}

TEST(RunProcess, SignalIsReported) {
    ProcessResult result = run_process(shell("kill -SEGV $$"));
    EXPECT_EQ(result.outcome, ProcessOutcome::Signaled);
    EXPECT_EQ(result.signal, SIGSEGV);
    EXPECT_FALSE(result.succeeded());
}

/// Reads a pid written by a child; 0 when absent.
pid_t read_pid(const std::filesystem::path& file) {
    std::ifstream in(file);
    pid_t pid = 0;
    in >> pid;
    return pid;
}

/// True once pid is gone or a zombie (waits up to 5 s for the kill to land).
bool ends_soon(pid_t pid) {
    for (int i = 0; i < 500; ++i) {
        if (kill(pid, 0) != 0 || process_state(pid) == 'Z') return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

TEST(RunProcess, TimeoutKillsTheWholeGroupIncludingGrandchildren) {
    std::filesystem::path folder = scratch("timeout");
    ProcessSpec spec = shell("sleep 100 & echo $! > '" + (folder / "pid").string() + "'; sleep 100");
    spec.timeout_s = 0.5;
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::TimedOut);
    EXPECT_LT(result.wall_s, 30.0);
    EXPECT_GE(result.wall_s, 0.5);
    pid_t grandchild = read_pid(folder / "pid");
    ASSERT_GT(grandchild, 0);
    EXPECT_TRUE(ends_soon(grandchild));
    std::filesystem::remove_all(folder);
}

TEST(RunProcess, BackgroundGrandchildHoldingThePipeDoesNotHangUs) {
    ProcessSpec spec = shell("sleep 100 & echo done");
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::Exited);
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_EQ(result.out, "done\n");
    EXPECT_LT(result.wall_s, 30.0);
}

TEST(RunProcess, BackgroundGrandchildIsKilledAfterTheChildExits) {
    std::filesystem::path folder = scratch("grandchild");
    ProcessResult result = run_process(shell("sleep 100 & echo $! > '" + (folder / "pid").string() + "'"));
    ASSERT_TRUE(result.succeeded());
    pid_t grandchild = read_pid(folder / "pid");
    ASSERT_GT(grandchild, 0);
    EXPECT_TRUE(ends_soon(grandchild));
    std::filesystem::remove_all(folder);
}

TEST(RunProcess, OutputCapKeepsTheFirstBytesAndDrainsTheRest) {
    ProcessSpec spec = shell("i=0; while [ $i -lt 3000 ]; do echo 0123456789abcdefghijklmnopqrstuvwxyz; "
                             "i=$((i+1)); done; echo tail >&2");
    spec.output_cap = 100;
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded());
    EXPECT_EQ(result.out.size(), 100u);
    EXPECT_EQ(result.out.substr(0, 37), "0123456789abcdefghijklmnopqrstuvwxyz\n");
    EXPECT_TRUE(result.out_truncated);
    EXPECT_EQ(result.err, "tail\n");
    EXPECT_FALSE(result.err_truncated);
}

TEST(RunProcess, MissingProgramIsASpawnFailure) {
    ProcessSpec spec;
    spec.argv = {"routetune-no-such-program-xyz"};
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::SpawnFailed);
    EXPECT_NE(result.error.find("routetune-no-such-program-xyz"), std::string::npos);
}

TEST(RunProcess, MissingAbsoluteProgramIsASpawnFailure) {
    ProcessSpec spec;
    spec.argv = {"/nonexistent/routetune/prog"};
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::SpawnFailed);
    EXPECT_NE(result.error.find("No such file"), std::string::npos) << result.error;
}

TEST(RunProcess, EmptyArgvIsASpawnFailure) {
    ProcessResult result = run_process(ProcessSpec{});
    EXPECT_EQ(result.outcome, ProcessOutcome::SpawnFailed);
    EXPECT_FALSE(result.error.empty());
}

TEST(RunProcess, MissingWorkingFolderIsASpawnFailure) {
    ProcessSpec spec;
    spec.argv = {"true"};
    spec.cwd = "/nonexistent/routetune/folder";
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::SpawnFailed);
    EXPECT_NE(result.error.find("/nonexistent/routetune/folder"), std::string::npos);
}

TEST(RunProcess, MemoryLimitMakesABigAllocationFail) {
    if (find_executable("python3").empty()) GTEST_SKIP() << "python3 not found";
    ProcessSpec spec;
    spec.argv = {"python3", "-c", "b = bytearray(256 * 1024 * 1024); print(len(b))"};
    ProcessResult unlimited = run_process(spec);
    ASSERT_TRUE(unlimited.succeeded()) << unlimited.err;
    spec.memory_limit_bytes = 160ull * 1024 * 1024;
    ProcessResult limited = run_process(spec);
    EXPECT_EQ(limited.outcome, ProcessOutcome::Exited);
    EXPECT_NE(limited.exit_code, 0);
    EXPECT_NE(limited.err.find("MemoryError"), std::string::npos) << limited.err;
}

TEST(RunProcess, TinyMemoryLimitIsAFailureNotAHang) {
    ProcessSpec spec;
    spec.argv = {"true"};
    spec.memory_limit_bytes = 64 * 1024;
    ProcessResult result = run_process(spec);
    EXPECT_FALSE(result.succeeded());
    EXPECT_TRUE(result.outcome == ProcessOutcome::SpawnFailed || result.outcome == ProcessOutcome::Signaled)
        << static_cast<int>(result.outcome) << " " << result.error;
}

TEST(RunProcess, EnvironmentOverlayIsApplied) {
    ProcessSpec spec = shell("echo \"$ROUTETUNE_TEST_VAR:$HOME\"");
    spec.env["ROUTETUNE_TEST_VAR"] = "hello world";
    spec.env["HOME"] = "/overridden";
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.out, "hello world:/overridden\n");
}

TEST(RunProcess, InheritsTheEnvironment) {
    setenv("ROUTETUNE_INHERITED", "yes", 1);
    ProcessResult result = run_process(shell("echo $ROUTETUNE_INHERITED"));
    EXPECT_EQ(result.out, "yes\n");
}

TEST(RunProcess, WorkingFolderIsApplied) {
    std::filesystem::path folder = scratch("cwd");
    ProcessSpec spec;
    spec.argv = {"pwd", "-P"};
    spec.cwd = folder;
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.out, std::filesystem::canonical(folder).string() + "\n");
    std::filesystem::remove_all(folder);
}

TEST(RunProcess, RelativeProgramIsResolvedInTheWorkingFolder) {
    std::filesystem::path folder = scratch("relative");
    {
        std::ofstream script(folder / "hello.sh");
        script << "#!/bin/sh\necho relative-ok\n";
    }
    std::filesystem::permissions(folder / "hello.sh", std::filesystem::perms::owner_all);
    ProcessSpec spec;
    spec.argv = {"./hello.sh"};
    spec.cwd = folder;
    EXPECT_EQ(run_process(spec).out, "relative-ok\n");
    std::filesystem::remove_all(folder);
}

TEST(RunProcess, StdinDataIsWrittenThenClosed) {
    ProcessSpec spec;
    spec.argv = {"cat"};
    spec.stdin_data = "line one\nline two\n";
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded());
    EXPECT_EQ(result.out, "line one\nline two\n");
}

TEST(RunProcess, LargeStdinRoundTripsWithoutDeadlock) {
    ProcessSpec spec;
    spec.argv = {"cat"};
    spec.stdin_data = std::string(3 << 20, 'x');
    spec.output_cap = 4 << 20;
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded());
    EXPECT_EQ(result.out.size(), spec.stdin_data.size());
}

TEST(RunProcess, ChildIgnoringStdinDoesNotKillUs) {
    ProcessSpec spec;
    spec.argv = {"true"};
    spec.stdin_data = std::string(1 << 20, 'x');
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded());
}

TEST(RunProcess, NoStdinDataMeansEndOfFile) {
    ProcessSpec spec;
    spec.argv = {"cat"};
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded());
    EXPECT_EQ(result.out, "");
}

TEST(RunProcess, StdoutToFile) {
    std::filesystem::path folder = scratch("stdout_file");
    ProcessSpec spec = shell("echo to-file; echo to-err >&2");
    spec.stdout_file = folder / "out.txt";
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded());
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "to-err\n");
    std::ifstream in(spec.stdout_file);
    std::stringstream content;
    content << in.rdbuf();
    EXPECT_EQ(content.str(), "to-file\n");
    std::filesystem::remove_all(folder);
}

TEST(RunProcess, ChildRunsInItsOwnProcessGroup) {
    ProcessResult result = run_process(shell("cut -d' ' -f5 /proc/$$/stat; echo $$"));
    ASSERT_TRUE(result.succeeded()) << result.err;
    std::istringstream lines(result.out);
    std::string pgid, pid;
    lines >> pgid >> pid;
    EXPECT_EQ(pgid, pid);
}

TEST(RunProcess, KillRunningProcessesEndsLiveGroups) {
    std::filesystem::path folder = scratch("kill_all");
    std::filesystem::path started = folder / "started";
    ProcessResult result;
    std::thread runner([&] {
        ProcessSpec spec = shell("touch '" + started.string() + "'; sleep 100 & sleep 100");
        spec.timeout_s = 120;
        result = run_process(spec);
    });
    while (!std::filesystem::exists(started)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill_running_processes();
    runner.join();
    EXPECT_EQ(result.outcome, ProcessOutcome::Signaled);
    EXPECT_EQ(result.signal, SIGKILL);
    std::filesystem::remove_all(folder);
}

TEST(RunProcess, WorksWhenTheToolsOwnStdinIsClosed) {
    int saved = dup(0);
    ASSERT_GE(saved, 0);
    close(0);
    ProcessSpec spec;
    spec.argv = {"cat"};
    spec.stdin_data = "through a low descriptor\n";
    ProcessResult result = run_process(spec);
    dup2(saved, 0);
    close(saved);
    EXPECT_TRUE(result.succeeded()) << result.error << result.err;
    EXPECT_EQ(result.out, "through a low descriptor\n");
}

TEST(RunProcess, SeveralThreadsAtOnce) {
    std::vector<ProcessResult> results(8);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < results.size(); ++i) {
        threads.emplace_back([&results, i] { results[i] = run_process(shell("echo " + std::to_string(i))); });
    }
    for (std::thread& t : threads) t.join();
    for (std::size_t i = 0; i < results.size(); ++i) {
        EXPECT_TRUE(results[i].succeeded());
        EXPECT_EQ(results[i].out, std::to_string(i) + "\n");
    }
}

TEST(RunProcess, LeavesNoDescriptorsOpen) {
    auto count_descriptors = [] {
        return std::distance(std::filesystem::directory_iterator("/proc/self/fd"),
                             std::filesystem::directory_iterator{});
    };
    start_process_guardian();  // its pipe is this process's for good, opened by the first run_process
    auto before = count_descriptors();
    ProcessSpec spec = shell("echo x; echo y >&2; sleep 100 & exit 3");
    spec.stdin_data = "input";
    run_process(spec);
    spec.timeout_s = 0.05;
    spec.argv = {"sleep", "10"};
    run_process(spec);
    spec.argv = {"routetune-no-such-program-xyz"};
    run_process(spec);
    EXPECT_EQ(count_descriptors(), before);
}

TEST(RunProcess, FileSizeLimitEndsAWriterPastIt) {
    std::filesystem::path folder = scratch("fsize");
    ProcessSpec spec = shell("head -c 3000000 /dev/zero > big; echo done");
    spec.cwd = folder;
    spec.file_size_limit_bytes = 1 << 20;
    ProcessResult result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::Exited) << "the shell goes on after head is stopped";
    EXPECT_EQ(result.out, "done\n");
    EXPECT_EQ(std::filesystem::file_size(folder / "big"), 1u << 20);
    ProcessSpec direct;
    direct.argv = {"/bin/sh", "-c", "exec head -c 3000000 /dev/zero > big2"};
    direct.cwd = folder;
    direct.file_size_limit_bytes = 1 << 20;
    ProcessResult killed = run_process(direct);
    EXPECT_EQ(killed.outcome, ProcessOutcome::Signaled);
    EXPECT_EQ(killed.signal, SIGXFSZ);
}

TEST(RunProcess, NiceIncrementLowersOnlyTheChildsPriority) {
    ProcessSpec spec = shell("nice");
    ProcessResult same = run_process(spec);
    spec.nice_increment = 7;
    ProcessResult lowered = run_process(spec);
    ASSERT_TRUE(same.succeeded()) << same.err;
    ASSERT_TRUE(lowered.succeeded()) << lowered.err;
    int own = std::stoi(same.out);
    EXPECT_EQ(std::stoi(lowered.out), std::min(own + 7, 19));
    EXPECT_EQ(std::stoi(run_process(shell("nice")).out), own) << "the parent's priority is left alone";
}

TEST(RunProcess, AStdoutFileThatCannotBeWrittenIsReportedAndEndsTheChild) {
    ProcessSpec spec = shell("yes");
    spec.stdout_file = "/dev/full";
    spec.timeout_s = 60;
    ProcessResult result = run_process(spec);
    EXPECT_NE(result.stdout_file_error.find("No space left on device"), std::string::npos) << result.stdout_file_error;
    EXPECT_NE(result.outcome, ProcessOutcome::TimedOut);
}

TEST(RunProcess, NoChildStartsAfterAnInterrupt) {
    request_interrupt();
    ProcessResult result = run_process(shell("echo started"));
    clear_interrupt();
    EXPECT_EQ(result.outcome, ProcessOutcome::SpawnFailed);
    EXPECT_NE(result.error.find("interrupted"), std::string::npos) << result.error;
    EXPECT_TRUE(run_process(shell("true")).succeeded());
}

TEST(RunProcess, NestedInterruptGuardsKeepHandlingUntilTheOutermostEnds) {
    {
        InterruptGuard outer;
        { InterruptGuard inner; }
        raise(SIGINT);  // handled by the outer guard, not the default action
        EXPECT_TRUE(interrupt_requested());
    }
    clear_interrupt();
}

TEST(ProcessGuardian, RunsInASessionOfItsOwnAndGuardsThisProcess) {
    ASSERT_TRUE(run_process(shell("true")).succeeded());
    ASSERT_TRUE(start_process_guardian());
    std::string wanted = std::string(kGuardianVariable) + "=" + this_process_tag();
    pid_t guardian = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::string environ_text = read_file(entry.path() / "environ").value_or("");
        for (std::size_t at = 0; at < environ_text.size(); at = environ_text.find('\0', at) + 1) {
            if (environ_text.compare(at, wanted.size() + 1, wanted + '\0') == 0) guardian = std::stoi(name);
            if (environ_text.find('\0', at) == std::string::npos) break;
        }
    }
    ASSERT_GT(guardian, 0) << "no process guards this one";
    EXPECT_EQ(getsid(guardian), guardian) << "the guardian shares a session (terminal signals would reach it)";
    EXPECT_NE(process_state(guardian), 'Z');
}

TEST(FindExecutable, SearchesPath) {
    std::filesystem::path sh = find_executable("sh");
    ASSERT_FALSE(sh.empty());
    EXPECT_TRUE(sh.is_absolute());
    EXPECT_EQ(sh.filename(), "sh");
}

TEST(FindExecutable, MissingOrNotExecutable) {
    EXPECT_TRUE(find_executable("routetune-no-such-program-xyz").empty());
    EXPECT_TRUE(find_executable("/etc/passwd").empty());
    EXPECT_TRUE(find_executable("/tmp").empty());
    EXPECT_TRUE(find_executable("").empty());
    EXPECT_EQ(find_executable("/bin/sh"), std::filesystem::path("/bin/sh"));
}

}  // namespace
}  // namespace routetune
