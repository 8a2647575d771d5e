// How one run of one case is executed: as a fresh process through the ProcessRunner (the
// default), or as a request to a warm measurement process (eval/warm_measurements.hpp). The
// Evaluator describes the run once, as a CaseLaunch, and reads the result the same way for
// both, so statuses, timing sources and accuracy checks do not depend on where it ran.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "routetune/route.hpp"
#include "util/process_runner.hpp"

namespace routetune {

/// One run of one case of one build.
struct CaseLaunch {
    ProcessSpec process;                ///< the run as a fresh process: argv, cwd, env, timeout, limits
    Route route;                        ///< the build's route (empty: the default)
    std::string artifact_sha256;        ///< the build's artifact, which names the build
    std::string case_name;
    std::vector<std::string> case_args; ///< the case's args, placeholders expanded
    std::filesystem::path artifact;
    std::filesystem::path workdir;
    std::filesystem::path output;       ///< where the case's output goes (the run's {output}, or its stdout)
    std::filesystem::path metrics;      ///< the run's {metrics}
    std::filesystem::path input;        ///< the case's input ("" when none)
    double load_timeout_s = 0;          ///< the limit of a warm process's run of this build, which loads
                                        ///< it (0: process.timeout_s); Evaluator::load_timeout
};

/// How one run ended.
struct LaunchResult {
    ProcessResult process;    ///< as a process would have ended (a warm run: wall_s is the request's round trip)
    std::string message;      ///< when not empty, why it failed, in place of the exit's own description
    std::string code_sha256;  ///< the code the run executed, as a warm process reports it ("" when unknown)
    std::string path;         ///< how a warm process says it ran that code (e.g. "captured"; "" when it does not say)
    std::string why;          ///< why it ran it that way, where it says (e.g. the reason its capture was refused)
    bool process_first = false;  ///< the warm process's first request: it also paid what the process pays once
                                 ///< (an Inductor model's trace, kept for later requests), not the build's own cost
    double setup_s = 0;          ///< seconds of this run a later run of the same build in the same warm process
                                 ///< does not pay (a compile the process keeps), as it reports them; 0 otherwise
};

/// Executes runs.
class CaseLauncher {
public:
    virtual ~CaseLauncher() = default;
    /// Runs launch to its end. Thread-safe for runs on different lanes (CUDA_VISIBLE_DEVICES).
    virtual LaunchResult run(const CaseLaunch& launch) = 0;
};

/// Each run a fresh process of launch.process through runner (which must outlive it).
std::unique_ptr<CaseLauncher> make_process_launcher(ProcessRunner& runner);

}  // namespace routetune
