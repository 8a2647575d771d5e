// Timing sources behind one interface: given a run that finished well, the times it took.
// The names and traits are in routetune/timing.hpp; the implementations are one file each
// (process_timing.cpp, reported_timing.cpp, cpu_timing.cpp) and make_timing_source picks one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/timing.hpp"
#include "util/process.hpp"

namespace routetune {

/// What a timing source may read of one run that exited with code 0.
struct FinishedRun {
    const ProcessResult& process;              ///< wall time, resource usage, captured stdout
    std::filesystem::path metrics;             ///< the run's {metrics} path (may not exist)
    std::function<std::string()> stdout_text;  ///< the run's stdout (captured, or the file it went to)
    std::uint64_t metrics_limit_bytes = 256u << 20;  ///< the most read of metrics ([run] max_output_mb)
};

/// Reads the times of finished runs.
class TimingSource {
public:
    virtual ~TimingSource() = default;
    /// The run's times in seconds (one, or the program's own repeats); nullopt with *error
    /// set when the run gave no time this source can read.
    virtual std::optional<std::vector<double>> times(const FinishedRun& run, std::string* error) const = 0;
};

/// The source named name (one of timing_sources()); adapter reads times from stdout where the
/// source allows. Throws UsageError for an unknown name.
std::unique_ptr<TimingSource> make_timing_source(std::string_view name, const Adapter& adapter);

/// The wall time of the run process.
std::unique_ptr<TimingSource> make_process_timing();
/// The time the program reports in {metrics}, else what adapter reads from its stdout.
std::unique_ptr<TimingSource> make_reported_timing(const Adapter& adapter);
/// The user + system CPU time of the run process (and the children it waited for).
std::unique_ptr<TimingSource> make_cpu_timing();

}  // namespace routetune
