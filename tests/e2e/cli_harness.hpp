// Running the built routetune executable from end-to-end tests: blocking runs with captured
// output, background runs that a test can kill, and scratch copies of fixture folders (so no
// test writes into the source tree).
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "util/files.hpp"
#include "util/process.hpp"

extern char** environ;

namespace routetune::e2e {

namespace fs = std::filesystem;

/// The catalog cache every e2e test shares (discovery is done once per compiler).
inline fs::path shared_cache_home() {
    fs::path home = fs::temp_directory_path() / ("routetune-e2e-cache-" + std::to_string(getuid()));
    fs::create_directories(home);
    return home;
}

/// The flags `routetune flags`' shell output gives (its ROUTETUNE_FLAGS line's value, unquoted
/// as printed); "(none)" when it printed no such line.
inline std::string shell_flags(const std::string& out) {
    const std::string key = "ROUTETUNE_FLAGS=";
    auto at = out.find(key);
    if (at == std::string::npos) return "(none)";
    auto end = out.find('\n', at);
    return out.substr(at + key.size(), (end == std::string::npos ? out.size() : end) - at - key.size());
}

/// What one CLI run produced.
struct CliResult {
    int exit_code = -1;
    std::string out;
    std::string err;
};

/// Runs routetune with args in cwd and extra environment; waits up to timeout_s.
inline CliResult run_cli(const std::vector<std::string>& args, const fs::path& cwd,
                         std::map<std::string, std::string> env = {}, double timeout_s = 300) {
    ProcessSpec spec;
    spec.argv.push_back(ROUTETUNE_BINARY);
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = cwd;
    env.emplace("XDG_CACHE_HOME", shared_cache_home().string());
    spec.env = env;
    spec.timeout_s = timeout_s;
    spec.output_cap = 8 << 20;
    ProcessResult result = run_process(spec);
    CliResult cli;
    cli.exit_code = result.outcome == ProcessOutcome::Exited ? result.exit_code : -1;
    cli.out = result.out;
    cli.err = result.err;
    return cli;
}

/// A routetune process running in the background; killed (SIGKILL) when destroyed.
class BackgroundCli {
public:
    BackgroundCli(const std::vector<std::string>& args, const fs::path& cwd, std::map<std::string, std::string> env = {}) {
        env.emplace("XDG_CACHE_HOME", shared_cache_home().string());
        std::vector<std::string> argv{ROUTETUNE_BINARY};
        argv.insert(argv.end(), args.begin(), args.end());
        std::vector<std::string> envs;
        for (char** e = environ; *e; ++e) envs.emplace_back(*e);
        for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
        std::vector<char*> argp, envp;
        for (auto& a : argv) argp.push_back(a.data());
        argp.push_back(nullptr);
        for (auto& e : envs) envp.push_back(e.data());
        envp.push_back(nullptr);
        fs::path log = cwd / "background.log";
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        if (posix_spawn(&pid_, ROUTETUNE_BINARY, &actions, nullptr, argp.data(), envp.data()) != 0) pid_ = -1;
        posix_spawn_file_actions_destroy(&actions);
    }
    ~BackgroundCli() {
        if (pid_ > 0 && !reaped_) {
            kill(pid_, SIGKILL);
            wait();
        }
    }
    /// Sends sig to the process.
    void signal(int sig) const { kill(pid_, sig); }
    /// The process id.
    pid_t pid() const { return pid_; }
    /// Waits for the exit; returns the exit code, or 128 + signal.
    int wait() {
        int status = 0;
        waitpid(pid_, &status, 0);
        reaped_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    /// True while the process runs.
    bool running() {
        if (reaped_) return false;
        int status = 0;
        pid_t r = waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            reaped_ = true;
            exit_status_ = status;
            return false;
        }
        return true;
    }

private:
    pid_t pid_ = -1;
    bool reaped_ = false;
    int exit_status_ = 0;
};

/// The port `routetune serve` printed in log ("serving http://HOST:PORT/"), HOST into host;
/// -1 when none is printed within 20 s.
inline int served_port(const fs::path& log, std::string& host) {
    for (int i = 0; i < 200; ++i) {
        std::smatch m;
        std::string text = read_file(log).value_or("");
        static const std::regex line("serving http://([0-9.]+):([0-9]+)/");
        if (std::regex_search(text, m, line)) {
            host = m[1].str();
            return std::stoi(m[2].str());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return -1;
}

/// A one-case spec over tests/fakes/fake_timed_cc, laid out as scratch_specs() copies it:
/// reported timing (1 warm-up, 5 repeats, 3 confirmation rounds) and timing_keys (lines of
/// more [timing] keys), run_keys (lines of more [run] keys), the case "unit", and [search]
/// routes in mode.
inline std::string fake_timed_spec(const std::string& name, const std::string& timing_keys, const std::string& routes,
                                   const std::string& mode, const std::string& run_keys = "") {
    return "name = \"" + name + R"("
[compiler]
adapter = "gcc"
path = "../../fakes/fake_timed_cc"
base = ["-O2"]
[build]
command = ["{compiler}", "{flags}", "tiny.c", "-o", "{artifact}"]
timeout_s = 30
[run]
command = ["{artifact}", "{metrics}", "{input}"]
timeout_s = 10
)" + run_keys + R"([timing]
source = "reported"
warmup = 1
repeats = 5
confirm_rounds = 3
)" + timing_keys + R"([accuracy]
format = "text"
threshold = 1e-6
[[case]]
name = "unit"
input = "fake_input_1.txt"
[search]
routes = ")" + routes + "\"\nmode = \"" + mode + "\"\n";
}

/// A fresh scratch copy of tests/fixtures/specs and tests/fakes, laid out as in the source
/// tree (the specs name their compilers as ../../fakes/...); returns the copied specs folder.
inline fs::path scratch_specs() {
    fs::path root = make_scratch_folder(fs::temp_directory_path(), "routetune-e2e-") / "tests";
    fs::create_directories(root / "fixtures");
    fs::copy(fs::path(ROUTETUNE_FIXTURES) / "specs", root / "fixtures" / "specs", fs::copy_options::recursive);
    fs::copy(fs::path(ROUTETUNE_FAKES), root / "fakes", fs::copy_options::recursive);
    return root / "fixtures" / "specs";
}

/// A fresh scratch copy of tests/fixtures/trtexec and tests/fakes, laid out as in the source
/// tree (spec_fake.toml names ../../fakes/fake_trtexec); returns the copied trtexec folder.
inline fs::path scratch_trtexec() {
    fs::path root = make_scratch_folder(fs::temp_directory_path(), "routetune-e2e-") / "tests";
    fs::create_directories(root / "fixtures");
    fs::copy(fs::path(ROUTETUNE_FIXTURES) / "trtexec", root / "fixtures" / "trtexec", fs::copy_options::recursive);
    fs::copy(fs::path(ROUTETUNE_FAKES), root / "fakes", fs::copy_options::recursive);
    return root / "fixtures" / "trtexec";
}

/// Path of a fake under tests/fakes.
inline std::string fake(const std::string& name) { return (fs::path(ROUTETUNE_FAKES) / name).string(); }

}  // namespace routetune::e2e
