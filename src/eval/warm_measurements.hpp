// The warm measurement processes of one study: one per lane (the CUDA_VISIBLE_DEVICES a run
// carries; "" with one lane), started when the lane's first run arrives and replaced after
// a run that ended it. Before a process runs its first candidate, and once more when it is
// closed, it re-measures the default (the check the Evaluator supplies), so a process that
// drifts or carries state from one candidate to the next shows it; and each build's runs must
// report one and the same code (the hash the process computes of the code it executed), which
// is recorded per build as the evidence that a candidate ran its own code.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/spec.hpp"
#include "routetune/study.hpp"
#include "eval/case_launcher.hpp"
#include "eval/measurement_process.hpp"

namespace routetune {

/// What WarmMeasurements::close() takes, as a study plans its time with `lanes` measurement lanes:
/// in each process, one after another, one more run of the default (default_run_s) and its quit;
/// one process per lane and, with more than one lane, the unpinned one that measured the default.
double warm_closing_s(std::size_t lanes, double default_run_s);

/// Measures the default through the given launcher: its time, or nullopt when it failed or is unknown.
using DefaultCheck = std::function<std::optional<double>(CaseLauncher& via)>;

/// One warm measurement process per lane; a CaseLauncher for the Evaluator.
class WarmMeasurements : public CaseLauncher {
public:
    /// Processes of server (argv, cwd, env; a lane adds its CUDA_VISIBLE_DEVICES) started through
    /// runner, each given start_timeout_s to be ready; their pipes and logs go under folder.
    WarmMeasurements(ProcessRunner& runner, ProcessSpec server, std::filesystem::path folder, double start_timeout_s);
    /// Kills what is still running.
    ~WarmMeasurements() override;

    /// Sets how the default is re-measured first and last in each process.
    void set_default_check(DefaultCheck check);
    /// Runs launch on its lane's process (started, or replaced, as needed); a process that
    /// cannot start fails the run (run_failed) with why.
    LaunchResult run(const CaseLaunch& launch) override;
    /// Re-measures the default in every live process, asks each to quit, and returns the report
    /// of every process started so far, in the order they ended. Later runs start new processes.
    std::vector<WarmProcessReport> close();
    /// Per build measured (route, artifact): the code its runs executed, in first-run order.
    std::vector<CodeIdentity> code_identities() const;

private:
    struct Lane {
        std::mutex mutex;
        std::unique_ptr<MeasurementProcess> process;
        WarmProcessReport report;
        std::vector<Route> routes;  ///< the candidates its process ran
        std::vector<double> request_s;  ///< the wall of each study run its process answered
        bool checked = false;
    };

    Lane& lane(const std::string& name);
    std::string start(Lane& lane, const std::string& name);
    void retire(Lane& lane, std::string why);
    /// "" when code (what a run of launch's build says it executed) is what that build's earlier
    /// runs executed, or the build's first; else why not. Records the code, path and why per build.
    std::string check_code(const CaseLaunch& launch, const std::string& code, const std::string& path, const std::string& why);

    ProcessRunner& runner_;
    ProcessSpec server_;
    std::filesystem::path folder_;
    double start_timeout_s_;
    DefaultCheck check_;
    mutable std::mutex mutex_;  ///< guards lanes_, finished_, code_, started_
    std::map<std::string, std::unique_ptr<Lane>> lanes_;
    std::vector<WarmProcessReport> finished_;
    std::vector<CodeIdentity> code_;
    std::size_t started_ = 0;
};

/// The warm processes of spec's [run] server: its argv with {compiler} and {spec_dir} expanded,
/// in the run's folder, with the run's environment (entries naming a run's own placeholders are
/// left to each request) and default_route's; each given the run's timeout to be ready.
std::unique_ptr<WarmMeasurements> make_warm_measurements(const Spec& spec, const std::string& compiler,
                                                         const AppliedRoute& default_route, ProcessRunner& runner,
                                                         const std::filesystem::path& folder);

}  // namespace routetune
