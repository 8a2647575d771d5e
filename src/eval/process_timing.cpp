// [timing] source = "process": the wall time of the run process, from spawn to reap. It
// includes the process's start, its I/O waits and any interference from other processes,
// which is why a study never measures beside its own builds with this source.
#include "eval/timing_source.hpp"

namespace routetune {

namespace {

class ProcessTiming : public TimingSource {
public:
    std::optional<std::vector<double>> times(const FinishedRun& run, std::string*) const override {
        return std::vector<double>{run.process.wall_s};
    }
};

}  // namespace

std::unique_ptr<TimingSource> make_process_timing() { return std::make_unique<ProcessTiming>(); }

}  // namespace routetune
