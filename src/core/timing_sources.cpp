// The table of timing sources: a name, a line of help and the traits, read by name.
#include "routetune/timing.hpp"

#include "routetune/error.hpp"

namespace routetune {

const std::vector<TimingSourceInfo>& timing_sources() {
    static const std::vector<TimingSourceInfo> sources{
        {"process", "wall time of each run process", {false, false, 64 << 10}},
        {"reported", "the time the program reports: {\"time_ms\": x} in {metrics}, or on stdout", {true, true, 1 << 20}},
        {"cpu", "user + system CPU time of each run process (wait4's resource usage)", {false, false, 64 << 10}},
    };
    return sources;
}

const TimingSourceInfo* find_timing_source(std::string_view name) {
    for (const auto& source : timing_sources()) {
        if (source.name == name) return &source;
    }
    return nullptr;
}

std::vector<std::string> timing_source_names() {
    std::vector<std::string> names;
    for (const auto& source : timing_sources()) names.push_back(source.name);
    return names;
}

const TimingTraits& timing_source_traits(std::string_view name) {
    if (const TimingSourceInfo* source = find_timing_source(name)) return source->traits;
    std::string known;
    for (const auto& source : timing_sources()) known += (known.empty() ? "" : ", ") + source.name;
    throw UsageError("unknown timing source '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace routetune
