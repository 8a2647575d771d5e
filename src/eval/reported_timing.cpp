// [timing] source = "reported": the program times itself (CUDA events, a kernel-only clock)
// and writes {"time_ms": x} or {"time_ms": [x, ...]} to {metrics}, read up to [run]
// max_output_mb and only as a regular file. A run that leaves the metrics file absent or blank
// has its stdout handed to the adapter's times_from_output (trtexec: the "GPU Compute Time"
// median); neither gives a time: the run failed.
#include "eval/reported_time.hpp"
#include "eval/timing_source.hpp"
#include "util/bounded_read.hpp"

namespace routetune {

namespace {

class ReportedTiming : public TimingSource {
public:
    explicit ReportedTiming(const Adapter& adapter) : adapter_(adapter) {}

    std::optional<std::vector<double>> times(const FinishedRun& run, std::string* error) const override {
        BoundedRead metrics = read_bounded(run.metrics, run.metrics_limit_bytes, "metrics file");
        if (!metrics.bytes && !metrics.missing) {
            if (error) *error = metrics.error;
            return std::nullopt;
        }
        std::string metrics_text = metrics.bytes.value_or("");
        if (metrics_text.find_first_not_of(" \t\r\n") != std::string::npos)
            return parse_reported_times(metrics_text, error);
        std::optional<std::vector<double>> reported = adapter_.times_from_output(run.stdout_text());
        if (!reported && error)
            *error = "wrote no {metrics} file and its stdout holds no time the " + adapter_.name() +
                     " adapter can read";
        return reported;
    }

private:
    const Adapter& adapter_;
};

}  // namespace

std::unique_ptr<TimingSource> make_reported_timing(const Adapter& adapter) {
    return std::make_unique<ReportedTiming>(adapter);
}

}  // namespace routetune
