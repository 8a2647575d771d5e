// What makes two runs identical: the same artifact bytes, run with the same environment and
// the same generated files of its route (Inductor and declared-knob routes travel as
// environment values, so one artifact under two routes may still run differently).
#pragma once

#include <string>

#include "routetune/adapter.hpp"

namespace routetune {

/// The SHA-256 (hex) over artifact_sha256 and applied's environment and files (flags are left
/// out: they made the artifact); "" when artifact_sha256 is empty (nothing was built).
std::string run_identity(const std::string& artifact_sha256, const AppliedRoute& applied);

}  // namespace routetune
