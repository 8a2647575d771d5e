// The factory of each timing source named in routetune/timing.hpp's table.
#include "eval/timing_source.hpp"

#include "routetune/error.hpp"

namespace routetune {

std::unique_ptr<TimingSource> make_timing_source(std::string_view name, const Adapter& adapter) {
    timing_source_traits(name);  // throws for an unknown name, listing the known ones
    if (name == "reported") return make_reported_timing(adapter);
    if (name == "cpu") return make_cpu_timing();
    if (name == "process") return make_process_timing();
    throw UsageError("timing source '" + std::string(name) + "' has no implementation");
}

}  // namespace routetune
