// One warm measurement process: a long-lived program that keeps its context (a CUDA context, a
// loaded model) and runs one case of one build per request. It is started through the
// ProcessRunner like any run (own process group, reaped, its descendants ended with it) on a
// thread of its own, and talks routetune-measure-1 (docs/measurement-protocol.md): JSON lines
// over two named pipes in its channel folder, `requests` (routetune writes) and `replies` (it
// writes), named to it by ROUTETUNE_MEASURE_REQUESTS and ROUTETUNE_MEASURE_REPLIES. A process
// that dies, hangs past a run's timeout, answers out of turn or says it is corrupted is ended
// here; its owner starts another.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>

#include "eval/case_launcher.hpp"
#include "util/cancellation.hpp"

namespace routetune {

/// The protocol's name, sent in the process's first line.
inline constexpr const char* kMeasureProtocol = "routetune-measure-1";

/// One warm measurement process.
class MeasurementProcess {
public:
    /// A process of command (its argv, cwd, env; the channel's variables are added) whose pipes
    /// and logs live in channel (created); runner starts it. Nothing starts before start().
    MeasurementProcess(ProcessRunner& runner, ProcessSpec command, std::filesystem::path channel);
    /// Ends the process (killed when still alive) and waits for it.
    ~MeasurementProcess();
    MeasurementProcess(const MeasurementProcess&) = delete;
    MeasurementProcess& operator=(const MeasurementProcess&) = delete;

    /// Starts it and waits up to timeout_s for its hello; "" when it is ready, else why not
    /// (it is then ended).
    std::string start(double timeout_s);
    /// True from a successful start until it is ended.
    bool alive() const { return alive_; }
    /// Its process id (0 before it started).
    long pid() const { return pid_.load(); }
    /// Runs launch in it within the larger of launch.process.timeout_s and launch.load_timeout_s
    /// (each run loads its build again). A run it answers "ok" or "failed" leaves
    /// it alive; one it dies in, overruns, answers out of protocol or calls "crashed" ends it
    /// (a crash or a timeout, with a message saying so).
    LaunchResult run(const CaseLaunch& launch);
    /// Asks it to quit and waits up to timeout_s, then kills it.
    void quit(double timeout_s);
    /// Why it ended ("" while alive).
    const std::string& ended() const { return ended_; }

private:
    enum class Wait { Line, Died, TimedOut };
    Wait read_line(double deadline_s, std::string& line);
    bool send(const std::string& line, double deadline_s);
    void end(std::string why);
    std::string death_text();
    LaunchResult failed_run(const CaseLaunch& launch, ProcessOutcome outcome, const std::string& what, double started_s);

    ProcessRunner& runner_;
    ProcessSpec command_;
    std::filesystem::path channel_;
    Cancellation cancellation_;
    std::thread thread_;
    std::atomic<bool> finished_{false};
    std::atomic<long> pid_{0};
    ProcessResult result_;  ///< written by the thread before finished_
    int requests_fd_ = -1;
    int replies_fd_ = -1;
    std::string buffer_;
    std::uint64_t next_id_ = 1;
    bool alive_ = false;
    std::string ended_;
};

}  // namespace routetune
