// A ProcessRunner that starts nothing, the way ninja's FakeCommandRunner drives its builder:
// a build (argv[0] == "fakecc") "writes" its artifact, a file holding the route's flags (or the
// bytes scripted for it: two routes may build one artifact), and a run of that artifact answers
// from the behaviour scripted for the flags it holds. Every call is
// recorded, and the fake processes' time is added up so a simulated executor can charge it.
#pragma once

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "util/process_runner.hpp"

namespace routetune::fake {

/// How the fake answers for one route.
struct Behaviour {
    double build_s = 1;                           ///< wall time of the build
    int build_exit = 0;                           ///< non-zero: the build fails
    double run_s = 0.1;                           ///< wall time of each run (when run_times is empty)
    std::vector<double> run_times;                ///< cycled through, one per run of this route
    double cpu_s = -1;                            ///< user CPU time reported per run (< 0: run_s)
    int run_exit = 0;                             ///< non-zero: every run fails
    std::map<std::string, std::string> outputs;   ///< last case argument -> output; absent: "42\n"
    std::optional<std::string> artifact;          ///< the artifact's bytes (its runs then answer as
                                                  ///< the route with those flags); absent: the flags
    std::vector<double> build_run_s;              ///< builds differ: the n-th build's runs take
                                                  ///< build_run_s[n % size] (its artifact names n)
};

/// One call, as the fake saw it.
struct Call {
    bool build = false;
    std::string flags;  ///< the route's flags ("" for the default route)
    ProcessSpec spec;
};

/// The scripted runner. Thread-safe.
class CommandRunner : public ProcessRunner {
public:
    std::map<std::string, Behaviour> routes;               ///< flags ("-a=1 -b=on") -> behaviour
    Behaviour fallback;                                    ///< for flags not in routes
    std::function<void(const Call&)> on_call;              ///< runs before each answer (e.g. an interrupt)
    double drift_per_run = 0;                              ///< the machine drifts: the n-th run of any
                                                           ///< route takes (1 - n * drift) of its time

    ProcessResult run(const ProcessSpec& spec) override {
        std::lock_guard lock(mutex_);
        Call call;
        call.spec = spec;
        call.build = !spec.argv.empty() && spec.argv[0] == "fakecc";
        std::size_t nth_build = 0;
        call.flags = call.build ? build_flags(spec.argv) : read_artifact(spec.argv.at(0), nth_build);
        calls_.push_back(call);
        if (on_call) on_call(call);
        const Behaviour& behaviour = routes.count(call.flags) ? routes.at(call.flags) : fallback;
        return call.build ? build(spec, call.flags, behaviour) : execute(spec, call.flags, behaviour, nth_build);
    }

    /// Every call so far, in order.
    std::vector<Call> calls() const {
        std::lock_guard lock(mutex_);
        return calls_;
    }

    /// Seconds of fake process time since the last call of take_elapsed.
    double take_elapsed() {
        std::lock_guard lock(mutex_);
        double elapsed = elapsed_;
        elapsed_ = 0;
        return elapsed;
    }

private:
    static std::string build_flags(const std::vector<std::string>& argv) {
        std::string flags;
        for (std::size_t i = 1; i + 2 < argv.size(); ++i) flags += (flags.empty() ? "" : " ") + argv[i];
        return flags;
    }

    static std::string read_artifact(const std::string& path, std::size_t& nth_build) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        std::string content = text.str();
        std::size_t mark = content.find("\n#");
        if (mark == std::string::npos) return content;
        nth_build = std::stoul(content.substr(mark + 2));
        return content.substr(0, mark);
    }

    ProcessResult finish(const ProcessSpec& spec, double seconds, int exit_code) {
        ProcessResult result;
        if (spec.timeout_s > 0 && seconds > spec.timeout_s) {
            result.outcome = ProcessOutcome::TimedOut;
            result.signal = 9;
            seconds = spec.timeout_s;
        } else {
            result.outcome = ProcessOutcome::Exited;
            result.exit_code = exit_code;
        }
        result.wall_s = seconds;
        elapsed_ += seconds;
        return result;
    }

    ProcessResult build(const ProcessSpec& spec, const std::string& flags, const Behaviour& behaviour) {
        ProcessResult result = finish(spec, behaviour.build_s, behaviour.build_exit);
        std::size_t nth = builds_[flags]++;
        std::string bytes = behaviour.artifact.value_or(flags);
        if (!behaviour.build_run_s.empty()) bytes += "\n#" + std::to_string(nth);
        if (result.succeeded()) std::ofstream(spec.argv.back()) << bytes;
        else result.err = "fakecc: error: scripted failure\n";
        return result;
    }

    ProcessResult execute(const ProcessSpec& spec, const std::string& flags, const Behaviour& behaviour,
                          std::size_t nth_build) {
        std::size_t nth = runs_[flags]++;
        double seconds = behaviour.run_times.empty() ? behaviour.run_s
                                                     : behaviour.run_times[nth % behaviour.run_times.size()];
        if (!behaviour.build_run_s.empty()) seconds = behaviour.build_run_s[nth_build % behaviour.build_run_s.size()];
        seconds *= 1 - drift_per_run * static_cast<double>(total_runs_++);
        ProcessResult result = finish(spec, seconds, behaviour.run_exit);
        result.user_s = behaviour.cpu_s >= 0 ? behaviour.cpu_s : seconds;
        if (!result.succeeded()) return result;
        std::string argument = spec.argv.size() > 1 ? spec.argv.back() : "";
        auto output = behaviour.outputs.find(argument);
        std::string text = output == behaviour.outputs.end() ? "42\n" : output->second;
        if (spec.stdout_file.empty()) result.out = text;
        else std::ofstream(spec.stdout_file) << text;
        for (const auto& item : spec.argv) {
            if (item.find("metrics-") != std::string::npos)
                std::ofstream(item) << "{\"time_ms\": " << seconds * 1000 << "}";
        }
        return result;
    }

    mutable std::mutex mutex_;
    std::vector<Call> calls_;
    std::map<std::string, std::size_t> runs_;
    std::map<std::string, std::size_t> builds_;
    std::size_t total_runs_ = 0;
    double elapsed_ = 0;
};

}  // namespace routetune::fake
