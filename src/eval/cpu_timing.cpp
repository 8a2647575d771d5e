// [timing] source = "cpu": user + system CPU time of the run process, from the resource usage
// wait4 returns when it is reaped. Its limits, which are also its point: it hides the time the
// program waits (I/O, sleeps, locks) and the time other processes take the cores from it, so
// on a shared machine it is far steadier than wall time; it counts every thread (a program
// that gets faster by running on more threads does not look faster) and includes the children
// the program waited for (a wrapper script's children count). It does not hide cache and memory
// bandwidth contention, so measurements still never run beside the study's builds.
#include "eval/timing_source.hpp"

namespace routetune {

namespace {

class CpuTiming : public TimingSource {
public:
    std::optional<std::vector<double>> times(const FinishedRun& run, std::string*) const override {
        return std::vector<double>{run.process.user_s + run.process.system_s};
    }
};

}  // namespace

std::unique_ptr<TimingSource> make_cpu_timing() { return std::make_unique<CpuTiming>(); }

}  // namespace routetune
