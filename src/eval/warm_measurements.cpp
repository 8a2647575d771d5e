// A lane's process is used by one run at a time (the lane's mutex); runs of different lanes
// go on in parallel. The first candidate run of a process (not the default's own runs) is
// preceded by the default check; close() checks once more, then asks each process to quit. A
// process that a run or a check ended is retired with the reason it ended, and the lane's next
// run starts another. Code identity: the first run of a build (route and artifact sha256)
// records the code it reports; a later run of that build reporting other code fails.
#include "eval/warm_measurements.hpp"

#include <algorithm>

#include "spec/placeholders.hpp"
#include "util/statistics.hpp"

namespace routetune {

namespace {

constexpr double kQuitTimeoutS = 10;
constexpr double kQuitS = 1;  // a process's quit as planned: it exits at once after its reply (routetune_measure.py)

// A launcher that is one given process (the default's checks go there, not to the lane).
class ViaProcess : public CaseLauncher {
public:
    explicit ViaProcess(MeasurementProcess& process) : process_(process) {}
    LaunchResult run(const CaseLaunch& launch) override { return process_.run(launch); }

private:
    MeasurementProcess& process_;
};

std::string lane_of(const CaseLaunch& launch) {
    auto found = launch.process.env.find("CUDA_VISIBLE_DEVICES");
    return found == launch.process.env.end() ? "" : found->second;
}

}  // namespace

WarmMeasurements::WarmMeasurements(ProcessRunner& runner, ProcessSpec server, std::filesystem::path folder,
                                   double start_timeout_s)
    : runner_(runner), server_(std::move(server)), folder_(std::move(folder)), start_timeout_s_(start_timeout_s) {}

WarmMeasurements::~WarmMeasurements() = default;

void WarmMeasurements::set_default_check(DefaultCheck check) { check_ = std::move(check); }

WarmMeasurements::Lane& WarmMeasurements::lane(const std::string& name) {
    std::lock_guard hold(mutex_);
    auto& slot = lanes_[name];
    if (!slot) slot = std::make_unique<Lane>();
    return *slot;
}

std::string WarmMeasurements::start(Lane& lane, const std::string& name) {
    ProcessSpec command = server_;
    if (!name.empty()) command.env["CUDA_VISIBLE_DEVICES"] = name;
    std::size_t number = 0;
    {
        std::lock_guard hold(mutex_);
        number = ++started_;
    }
    std::string folder = "lane" + (name.empty() ? std::string("0") : name) + "-" + std::to_string(number);
    lane.process = std::make_unique<MeasurementProcess>(runner_, std::move(command), folder_ / folder);
    lane.report = WarmProcessReport{};
    lane.report.lane = name;
    lane.routes.clear();
    lane.request_s.clear();
    std::string why = lane.process->start(start_timeout_s_);
    lane.report.pid = lane.process->pid();
    if (!why.empty()) retire(lane, "did not start: " + why);
    return why;
}

void WarmMeasurements::retire(Lane& lane, std::string why) {
    lane.report.ended = std::move(why);
    lane.report.routes = lane.routes.size();
    if (!lane.request_s.empty()) {
        lane.report.request_median_s = median(lane.request_s);
        lane.report.request_max_s = *std::max_element(lane.request_s.begin(), lane.request_s.end());
    }
    lane.process.reset();
    std::lock_guard hold(mutex_);
    finished_.push_back(lane.report);
}

LaunchResult WarmMeasurements::run(const CaseLaunch& launch) {
    std::string name = lane_of(launch);
    Lane& lane = this->lane(name);
    std::lock_guard hold(lane.mutex);
    for (int attempt = 0;; ++attempt) {
        if (!lane.process) {
            std::string why = start(lane, name);
            if (!why.empty()) {
                LaunchResult failed;
                failed.process.outcome = ProcessOutcome::Exited;
                failed.process.exit_code = 1;
                failed.message = "case '" + launch.case_name + "': the warm measurement process did not start: " + why;
                return failed;
            }
            lane.checked = attempt > 0;  // a process started after a check ended one is not checked again
        }
        if (launch.route.empty() || lane.checked) break;
        lane.checked = true;
        if (check_) {
            ViaProcess via(*lane.process);
            lane.report.default_first_s = check_(via);
        }
        if (lane.process->alive()) break;
        retire(lane, "the default's check ended it: " + lane.process->ended());
    }
    LaunchResult result = lane.process->run(launch);
    ++lane.report.runs;
    if (result.process.outcome == ProcessOutcome::Exited) lane.request_s.push_back(result.process.wall_s);
    if (!launch.route.empty() && std::find(lane.routes.begin(), lane.routes.end(), launch.route) == lane.routes.end())
        lane.routes.push_back(launch.route);
    if (!lane.process->alive()) {
        retire(lane, lane.process->ended());
    } else if (result.process.succeeded()) {
        std::string wrong = check_code(launch, result.code_sha256, result.path, result.why);
        if (!wrong.empty()) {
            result.process.exit_code = 1;
            result.message = wrong;
        }
    }
    return result;
}

namespace {

// Adds text to list unless it is empty or there already.
void add_once(std::vector<std::string>& list, const std::string& text) {
    if (!text.empty() && std::find(list.begin(), list.end(), text) == list.end()) list.push_back(text);
}

}  // namespace

std::string WarmMeasurements::check_code(const CaseLaunch& launch, const std::string& code, const std::string& path,
                                         const std::string& why) {
    if (code.empty()) return "";
    std::lock_guard hold(mutex_);
    for (auto& known : code_) {
        if (known.route != launch.route || known.artifact_sha256 != launch.artifact_sha256) continue;
        if (known.code_sha256 != code)
            return "case '" + launch.case_name + "' ran code " + code.substr(0, 16) + " where an earlier run of the same build ran " +
                   known.code_sha256.substr(0, 16) + ": the measurement process did not run this build's own code";
        add_once(known.paths, path);
        add_once(known.why, why);
        return "";
    }
    code_.push_back(CodeIdentity{launch.route, launch.artifact_sha256, code, {}, {}});
    add_once(code_.back().paths, path);
    add_once(code_.back().why, why);
    return "";
}

double warm_closing_s(std::size_t lanes, double default_run_s) {
    std::size_t processes = lanes > 1 ? lanes + 1 : 1;  // the default's evaluation runs unpinned, in a process of its own
    return static_cast<double>(processes) * (default_run_s + kQuitS);
}

std::vector<WarmProcessReport> WarmMeasurements::close() {
    std::vector<Lane*> lanes;
    {
        std::lock_guard hold(mutex_);
        for (auto& [name, lane] : lanes_) lanes.push_back(lane.get());
    }
    for (Lane* lane : lanes) {
        std::lock_guard hold(lane->mutex);
        if (!lane->process) continue;
        if (check_) {
            ViaProcess via(*lane->process);
            lane->report.default_last_s = check_(via);
        }
        std::string why = lane->process->alive() ? "closed" : "the default's last check ended it: " + lane->process->ended();
        lane->process->quit(kQuitTimeoutS);
        retire(*lane, why);
    }
    std::lock_guard hold(mutex_);
    return finished_;
}

std::vector<CodeIdentity> WarmMeasurements::code_identities() const {
    std::lock_guard hold(mutex_);
    return code_;
}

std::unique_ptr<WarmMeasurements> make_warm_measurements(const Spec& spec, const std::string& compiler,
                                                         const AppliedRoute& default_route, ProcessRunner& runner,
                                                         const std::filesystem::path& folder) {
    PlaceholderValues values{{"compiler", {compiler}}, {"spec_dir", {spec.dir.string()}}};
    auto known = [&](const std::string& text) {
        for (const auto& use : find_placeholders(text)) {
            if (!values.count(use.name)) return false;
        }
        return true;
    };
    ProcessSpec server;
    server.argv = expand_argv(spec.run.server, values);
    server.cwd = spec.run.cwd.empty() || !known(spec.run.cwd) ? spec.dir : std::filesystem::path(expand_text(spec.run.cwd, values));
    if (server.cwd.is_relative()) server.cwd = spec.dir / server.cwd;
    for (const auto& [name, value] : spec.run.env) {
        if (known(value)) server.env[name] = expand_text(value, values);
    }
    for (const auto& [name, value] : default_route.environment) server.env[name] = value;
    server.label = "";
    server.file_size_limit_bytes = spec.run.max_output_mb << 20;  // each file it writes, as a fresh run's
    return std::make_unique<WarmMeasurements>(runner, std::move(server), folder, spec.run.timeout_s);
}

}  // namespace routetune
