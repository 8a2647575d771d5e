// Readers for what trtexec prints: the knob database of `trtexec --helpBuildRoute` (JSON:
// {"tuner_version", "tuner_options": [{"option", "allowed_values", "default_value", "help"}]})
// and the GPU time of its performance summary.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// The knob database of one TensorRT build.
struct TrtexecKnobDatabase {
    std::string tuner_version;  ///< e.g. "2.19.45"
    std::vector<Knob> knobs;    ///< one per tuner option, in listing order
};

/// Parses --helpBuildRoute output. Log lines around the JSON object are ignored. Types:
/// "[on|off]" → bool; another "[a|b|c]" → enum (unbounded when an element is "..."); no
/// brackets → unbounded: int when the default is an integer, else an open enum. Throws
/// UsageError when no well-formed JSON object with "tuner_options" is found.
TrtexecKnobDatabase parse_trtexec_build_route_help(std::string_view text);

/// The median (else the mean) in ms of the "GPU Compute Time: ..." line of trtexec's
/// performance summary (not "Total GPU Compute Time"); nullopt when there is none.
std::optional<double> parse_trtexec_gpu_time(std::string_view text);

}  // namespace routetune
