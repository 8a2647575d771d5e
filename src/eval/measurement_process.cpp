// How a request goes: one JSON line into `requests`, then lines are read from `replies` in
// slices of 50 ms until the line with the request's id arrives, the run's deadline passes, or
// the thread that waits for the process reports its end. Both pipes are opened read-write by
// routetune, so neither open blocks and the process sees end-of-file on `requests` when
// routetune goes away (it then exits: nothing is left behind a killed tune). A line that is
// not JSON, carries another id or an unknown status is the process's corruption, as is the
// status "crashed" (the process says its context is unusable, e.g. after a CUDA fault): the
// process is killed through its thread's Cancellation (its whole process group) and the run
// is a crash with a message naming what happened. Every run of a build in a process loads it
// (the workload resets its compiler before each request, so that no run can execute another
// build's code: a compiled model's code, its CUDA graphs, its frozen constants), which a relative
// time limit made from the default's run does not foresee: each run gets the launch's
// load_timeout_s where that is longer (ResNet-18's `freezing=on` folds its constants again on
// every request; given the allowance on its first request only, a later one timed out in a
// confirmation, docs/benchmarks.md, issue 26).
#include "eval/measurement_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "util/clock.hpp"
#include "util/excerpt.hpp"
#include "util/files.hpp"

namespace routetune {

namespace fs = std::filesystem;

namespace {

constexpr int kSliceMs = 50;

double now_s() { return real_clock().now_s(); }

int open_fifo(const fs::path& path) {
    ::mkfifo(path.c_str(), 0600);
    return ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

std::string request_line(const CaseLaunch& launch, std::uint64_t id) {
    nlohmann::json request{{"op", "run"},
                           {"id", id},
                           {"route", launch.route.to_string()},
                           {"case", launch.case_name},
                           {"args", launch.case_args},
                           {"artifact", launch.artifact.string()},
                           {"artifact_sha256", launch.artifact_sha256},
                           {"workdir", launch.workdir.string()},
                           {"output", launch.output.string()},
                           {"metrics", launch.metrics.string()},
                           {"input", launch.input.string()},
                           {"argv", launch.process.argv},
                           {"cwd", launch.process.cwd.string()},
                           {"env", launch.process.env}};
    return request.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g s", seconds);
    return text;
}

}  // namespace

MeasurementProcess::MeasurementProcess(ProcessRunner& runner, ProcessSpec command, fs::path channel)
    : runner_(runner), command_(std::move(command)), channel_(std::move(channel)) {}

MeasurementProcess::~MeasurementProcess() {
    if (thread_.joinable()) end(ended_.empty() ? "closed" : ended_);
    if (requests_fd_ >= 0) ::close(requests_fd_);
    if (replies_fd_ >= 0) ::close(replies_fd_);
}

std::string MeasurementProcess::start(double timeout_s) {
    std::error_code ec;
    fs::create_directories(channel_, ec);
    requests_fd_ = open_fifo(channel_ / "requests");
    replies_fd_ = open_fifo(channel_ / "replies");
    if (requests_fd_ < 0 || replies_fd_ < 0) {
        ended_ = "could not make its pipes in " + channel_.string();
        return ended_;
    }
    command_.env["ROUTETUNE_MEASURE_REQUESTS"] = (channel_ / "requests").string();
    command_.env["ROUTETUNE_MEASURE_REPLIES"] = (channel_ / "replies").string();
    command_.stdout_file = channel_ / "stdout.log";
    command_.output_cap = 64 << 10;
    command_.on_started = [this](int pgid) { pid_.store(pgid); };
    thread_ = std::thread([this] {
        CancellationScope scope(cancellation_);
        result_ = runner_.run(command_);
        finished_.store(true);
    });
    std::string line;
    Wait got = read_line(now_s() + timeout_s, line);
    if (got == Wait::Line) {
        auto hello = nlohmann::json::parse(line, nullptr, false);
        if (hello.is_object() && hello.value("protocol", "") == kMeasureProtocol) {
            alive_ = true;
            return "";
        }
        end("its first line is not a " + std::string(kMeasureProtocol) + " hello: " + quoted_excerpt(line));
    } else if (got == Wait::Died) {
        end("it ended before it was ready (" + death_text() + ")");
    } else {
        end("it was not ready after " + seconds_text(timeout_s));
    }
    return ended_;
}

MeasurementProcess::Wait MeasurementProcess::read_line(double deadline_s, std::string& line) {
    for (;;) {
        std::size_t newline = buffer_.find('\n');
        if (newline != std::string::npos) {
            line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            return Wait::Line;
        }
        bool died = finished_.load();  // read before draining: a reply written just before exit still counts
        char chunk[4096];
        ssize_t got = ::read(replies_fd_, chunk, sizeof chunk);
        if (got > 0) {
            buffer_.append(chunk, static_cast<std::size_t>(got));
            continue;
        }
        if (died) return Wait::Died;
        double left = deadline_s - now_s();
        if (left <= 0) return Wait::TimedOut;
        pollfd readable{replies_fd_, POLLIN, 0};
        ::poll(&readable, 1, static_cast<int>(std::min(left * 1000.0, double(kSliceMs))) + 1);
    }
}

bool MeasurementProcess::send(const std::string& line, double deadline_s) {
    std::size_t sent = 0;
    while (sent < line.size()) {
        if (finished_.load()) return false;
        ssize_t wrote = ::write(requests_fd_, line.data() + sent, line.size() - sent);
        if (wrote > 0) {
            sent += static_cast<std::size_t>(wrote);
            continue;
        }
        if (wrote < 0 && errno != EAGAIN && errno != EINTR) return false;
        if (now_s() > deadline_s) return false;
        pollfd writable{requests_fd_, POLLOUT, 0};
        ::poll(&writable, 1, kSliceMs);
    }
    return true;
}

void MeasurementProcess::end(std::string why) {
    alive_ = false;
    if (ended_.empty()) ended_ = std::move(why);
    if (!thread_.joinable()) return;
    if (!finished_.load()) cancellation_.cancel();
    thread_.join();
}

std::string MeasurementProcess::death_text() {
    if (thread_.joinable()) thread_.join();  // finished_: the thread is ending
    std::string text;
    switch (result_.outcome) {
        case ProcessOutcome::Signaled: text = "killed by signal " + std::to_string(result_.signal); break;
        case ProcessOutcome::Exited: text = "exited with code " + std::to_string(result_.exit_code); break;
        case ProcessOutcome::TimedOut: text = "timed out"; break;
        case ProcessOutcome::SpawnFailed: text = "could not start: " + result_.error; break;
    }
    std::size_t end = result_.err.find_last_not_of(" \t\r\n");
    if (end != std::string::npos) {
        std::size_t start = result_.err.find_last_of('\n', end);
        start = start == std::string::npos ? 0 : start + 1;
        text += ": " + result_.err.substr(start, std::min<std::size_t>(end + 1 - start, 300));
    }
    return text;
}

LaunchResult MeasurementProcess::failed_run(const CaseLaunch& launch, ProcessOutcome outcome, const std::string& what,
                                            double started_s) {
    LaunchResult result;
    result.process.outcome = outcome;
    result.process.wall_s = now_s() - started_s;
    result.message = "case '" + launch.case_name + "' " + what;
    return result;
}

LaunchResult MeasurementProcess::run(const CaseLaunch& launch) {
    double started = now_s();
    std::string who = "the warm measurement process (pid " + std::to_string(pid()) + ")";
    if (!alive_) return failed_run(launch, ProcessOutcome::Signaled, "found " + who + " ended: " + ended_, started);
    double timeout = launch.process.timeout_s > 0 ? launch.process.timeout_s : 1e9;
    if (launch.load_timeout_s > timeout) timeout = launch.load_timeout_s;  // the run loads its build: not timed work
    std::uint64_t id = next_id_++;
    std::string line;
    Wait got = send(request_line(launch, id), started + timeout) ? read_line(started + timeout, line) : Wait::Died;
    if (got == Wait::Died) {
        end("died while running case '" + launch.case_name + "' of " + quoted_excerpt(launch.route.to_string()));
        return failed_run(launch, ProcessOutcome::Signaled, "ended " + who + " (" + death_text() + "); it was replaced",
                          started);
    }
    if (got == Wait::TimedOut) {
        end("timed out running case '" + launch.case_name + "' of " + quoted_excerpt(launch.route.to_string()));
        return failed_run(launch, ProcessOutcome::TimedOut,
                          "timed out after " + seconds_text(timeout) + " in " + who + ", which was killed and replaced",
                          started);
    }
    auto reply = nlohmann::json::parse(line, nullptr, false);
    std::string status = reply.is_object() && reply.contains("id") && reply["id"] == id ? reply.value("status", "") : "";
    std::string said = reply.is_object() ? reply.value("message", "") : "";
    if (status == "ok" || status == "failed") {
        LaunchResult result;
        result.process.outcome = ProcessOutcome::Exited;
        result.process.exit_code = status == "ok" ? 0 : 1;
        result.process.wall_s = now_s() - started;
        result.code_sha256 = reply.value("code_sha256", "");
        result.path = reply.value("path", "");
        result.why = reply.contains("why") && reply["why"].is_string() ? reply["why"].get<std::string>() : "";
        result.process_first = id == 1;
        // What a later run of this build will not pay: a number within this run's wall, or nothing.
        double setup = reply.contains("setup_s") && reply["setup_s"].is_number() ? reply["setup_s"].get<double>() : 0.0;
        result.setup_s = std::isfinite(setup) ? std::clamp(setup, 0.0, result.process.wall_s) : 0.0;
        if (status == "failed") result.message = "case '" + launch.case_name + "' failed in " + who + ": " + said;
        return result;
    }
    std::string what = status == "crashed" ? "left " + who + " unusable: " + said
                                           : "left " + who + " answering out of protocol: " + quoted_excerpt(line);
    end(what);
    return failed_run(launch, ProcessOutcome::Signaled, what + "; it was replaced", started);
}

void MeasurementProcess::quit(double timeout_s) {
    if (alive_) {
        std::uint64_t id = next_id_++;
        double deadline = now_s() + timeout_s;
        if (send(nlohmann::json{{"op", "quit"}, {"id", id}}.dump() + "\n", deadline)) {
            while (!finished_.load() && now_s() < deadline) {
                pollfd none{-1, 0, 0};
                ::poll(&none, 0, kSliceMs);
            }
        }
    }
    end("closed");
}

}  // namespace routetune
