// The timing sources a spec may name in [timing] source, with what the rest of routetune must
// know about each (may its measurements share the machine with builds, does it read a
// {metrics} file). One table: the spec's validation, the scheduler and the evaluator read it;
// each source's implementation lives in src/eval/ (eval/timing_source.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace routetune {

/// What a timing source implies for the study around it.
struct TimingTraits {
    bool overlaps_builds = false;       ///< measurements may run beside builds and on several lanes
                                        ///< (the time is not the shared CPU's wall time)
    bool reads_metrics = false;         ///< a run reports its own time ({metrics}, or stdout via the adapter)
    std::size_t stdout_cap = 64 << 10;  ///< bytes of a run's stdout kept (a time may sit at its end)
};

/// One entry of the table.
struct TimingSourceInfo {
    std::string name;   ///< as written in [timing] source
    std::string help;   ///< one line for messages and docs
    TimingTraits traits;
};

/// Every timing source, the default ("process") first.
const std::vector<TimingSourceInfo>& timing_sources();

/// The entry named name, or nullptr.
const TimingSourceInfo* find_timing_source(std::string_view name);

/// The names of every timing source, in table order.
std::vector<std::string> timing_source_names();

/// The traits of the source named name; throws UsageError naming the known sources otherwise.
const TimingTraits& timing_source_traits(std::string_view name);

}  // namespace routetune
