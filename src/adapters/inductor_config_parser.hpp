// A parser for the Inductor config dump printed by `python/routetune_inductor.py
// --dump-config`: {"format": "routetune-inductor-config-1", "torch_version",
// "entries": [{"name", "type", "default", "values"?, "tags"?}]}.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// The prefix of every Inductor knob name: "-inductor:max_autotune".
inline constexpr std::string_view inductor_knob_prefix = "-inductor:";

/// The tunable entries of torch._inductor.config as knobs.
struct InductorConfig {
    std::string torch_version;
    std::vector<Knob> knobs;  ///< in dump order
};

/// Parses a config dump. Entry types: bool → bool knob (on|off); int → unbounded int; float →
/// open enum listing the default; str with values → enum; others are skipped. A null default
/// becomes an unknown default (""). Knobs are tagged "inductor" plus the entry's tags. Throws
/// UsageError for text that is not such a dump (wrong format marker, malformed JSON).
InductorConfig parse_inductor_config_dump(std::string_view text);

}  // namespace routetune
