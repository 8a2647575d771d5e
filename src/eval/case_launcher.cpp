// The default launcher: a run is its own process.
#include "eval/case_launcher.hpp"

namespace routetune {

namespace {

class ProcessLauncher : public CaseLauncher {
public:
    explicit ProcessLauncher(ProcessRunner& runner) : runner_(runner) {}
    LaunchResult run(const CaseLaunch& launch) override {
        LaunchResult result;
        result.process = runner_.run(launch.process);
        return result;
    }

private:
    ProcessRunner& runner_;
};

}  // namespace

std::unique_ptr<CaseLauncher> make_process_launcher(ProcessRunner& runner) {
    return std::make_unique<ProcessLauncher>(runner);
}

}  // namespace routetune
