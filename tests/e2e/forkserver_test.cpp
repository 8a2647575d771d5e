// python/routetune_forkserver.py without PyTorch (it preloads json instead): a child per
// call gets the caller's argv, folder, environment and stdio; exit codes and signals come
// back as the caller's own; a caller killed on a timeout takes its child with it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <thread>

#include "util/files.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class ForkServerTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("routetune-forkserver-test-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        write_file(dir_ / "script.py",
                   "import os, sys, time\n"
                   "print('argv', sys.argv[1:], 'cwd', os.path.basename(os.getcwd()), 'X', os.environ.get('X'))\n"
                   "print('stdin', sys.stdin.read().strip(), 'preloaded', 'json' in sys.modules)\n"
                   "sys.stderr.write('to stderr\\n')\n"
                   "if sys.argv[1] == 'sleep':\n"
                   "    open(sys.argv[2], 'w').write(str(os.getpid())); sys.stdout.flush(); time.sleep(60)\n"
                   "if sys.argv[1] == 'server':\n"
                   "    open(sys.argv[2], 'w').write(str(os.getppid()))\n"
                   "if sys.argv[1] == 'nice':\n"
                   "    print('niceness', os.nice(0))\n"
                   "if sys.argv[1] == 'hold':\n"
                   "    time.sleep(float(sys.argv[2]))\n"
                   "if sys.argv[1] == 'segv':\n"
                   "    os.kill(os.getpid(), 11)\n"
                   "sys.exit(int(sys.argv[1]) if sys.argv[1].isdigit() else 0)\n");
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static ProcessSpec call(std::vector<std::string> args) {
        ProcessSpec spec;
        spec.argv = {"python3", std::string(ROUTETUNE_SOURCE_DIR) + "/python/routetune_forkserver.py", "call",
                     (dir_ / "script.py").string()};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.cwd = dir_;
        spec.env = {{"ROUTETUNE_FORKSERVER_PRELOAD", "json"},
                    {"ROUTETUNE_FORKSERVER_SOCKET", (dir_ / "server.sock").string()},
                    {"ROUTETUNE_FORKSERVER_IDLE_S", "30"}};
        spec.timeout_s = 60;
        return spec;
    }

    static inline fs::path dir_;
};

TEST_F(ForkServerTest, ChildGetsTheCallersArgvFolderEnvironmentAndStdio) {
    ProcessSpec spec = call({"3", "two words"});
    spec.env["X"] = "from the caller";
    spec.stdin_data = "hello";
    auto result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::Exited);
    EXPECT_EQ(result.exit_code, 3);
    std::string folder = dir_.filename().string();
    EXPECT_EQ(result.out, "argv ['3', 'two words'] cwd " + folder + " X from the caller\nstdin hello preloaded True\n");
    EXPECT_EQ(result.err, "to stderr\n");
    ProcessSpec second = call({"0"});
    second.env["X"] = "another";
    auto again = run_process(second);
    EXPECT_TRUE(again.succeeded()) << again.err;
    EXPECT_NE(again.out.find("X another"), std::string::npos);  // not the first caller's environment
}

TEST_F(ForkServerTest, TheChildRunsAtItsCallersNiceness) {
    auto niceness_of = [](int increment) {
        ProcessSpec spec = call({"nice"});
        spec.nice_increment = increment;
        ProcessResult result = run_process(spec);
        EXPECT_TRUE(result.succeeded()) << result.err;
        std::size_t at = result.out.find("niceness ");
        return at == std::string::npos ? -100 : std::stoi(result.out.substr(at + 9));
    };
    int own = niceness_of(0);
    EXPECT_EQ(niceness_of(6), std::min(own + 6, 19)) << "a niced caller (a build) gets a niced child";
    EXPECT_EQ(niceness_of(0), own) << "the next child is not left niced";
}

TEST_F(ForkServerTest, ASignalOfTheChildIsTheCallersSignal) {
    auto result = run_process(call({"segv"}));
    EXPECT_EQ(result.outcome, ProcessOutcome::Signaled);
    EXPECT_EQ(result.signal, SIGSEGV);
}

TEST_F(ForkServerTest, AKilledCallerTakesItsChildWithIt) {
    fs::path pid_file = dir_ / "child.pid";
    ProcessSpec spec = call({"sleep", pid_file.string()});
    spec.timeout_s = 3;
    auto result = run_process(spec);
    EXPECT_EQ(result.outcome, ProcessOutcome::TimedOut);
    auto text = read_file(pid_file);
    ASSERT_TRUE(text.has_value());
    pid_t child = static_cast<pid_t>(std::stol(*text));
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = ::kill(child, 0) != 0;
        if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_TRUE(gone) << "child " << child << " still runs";
}

// The server is shared by every evaluation: ending the evaluation whose call started it (and
// every process carrying that evaluation's tag) must leave it running for the next ones.
TEST_F(ForkServerTest, TheServerOutlivesTheCallThatStartedIt) {
    fs::path pid_file = dir_ / "server.pid";
    auto result = run_process(call({"server", pid_file.string()}));
    ASSERT_TRUE(result.succeeded()) << result.err;
    auto text = read_file(pid_file);
    ASSERT_TRUE(text.has_value());
    pid_t server = static_cast<pid_t>(std::stol(*text));
    EXPECT_EQ(::kill(server, 0), 0) << "the server " << server << " was ended with the call";
    auto again = run_process(call({"server", pid_file.string()}));
    ASSERT_TRUE(again.succeeded()) << again.err;
    EXPECT_EQ(read_file(pid_file), text) << "a second call found no server and started another";
}

// A call ends when its own child does: a child forked while an earlier call ran must not hold
// that call's socket open (on the H200, builds done in 24 s waited minutes for a later build).
// The earlier call holds 3 s; the later one sleeps until it is killed, after the earlier returns.
TEST_F(ForkServerTest, ACallEndsWithItsChildWhileALaterCallStillRuns) {
    ASSERT_TRUE(run_process(call({"0"})).succeeded());  // the server is up before the clock starts
    fs::path pid_file = dir_ / "later.pid";
    fs::remove(pid_file);
    ProcessSpec later_spec = call({"sleep", pid_file.string()});
    later_spec.timeout_s = 30;
    auto started = std::chrono::steady_clock::now();
    std::thread earlier([&] {
        ProcessResult result = run_process(call({"hold", "3"}));
        EXPECT_TRUE(result.succeeded()) << result.err;
    });
    std::this_thread::sleep_for(std::chrono::seconds(1));  // the earlier call's child runs when the later one forks
    std::thread later([&] { run_process(later_spec); });
    earlier.join();
    double earlier_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    for (int i = 0; i < 100 && !fs::exists(pid_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (auto text = read_file(pid_file); text && !text->empty()) ::kill(static_cast<pid_t>(std::stol(*text)), SIGKILL);
    later.join();
    EXPECT_LT(earlier_s, 10) << "the earlier call waited for the later call's child";
}

}  // namespace
}  // namespace routetune
