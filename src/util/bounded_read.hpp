// Reading an input file the user named, with a size cap: a device (/dev/zero), a FIFO or a
// runaway file cannot grow routetune's memory without bound. Only regular files are read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace routetune {

/// Sizes allowed for the inputs routetune reads (bytes).
inline constexpr std::uint64_t kMaxSpecBytes = 4u << 20;        ///< a spec file
inline constexpr std::uint64_t kMaxExpressionBytes = 1u << 20;  ///< a routes file
inline constexpr std::uint64_t kMaxTuningCacheBytes = 256u << 20; ///< a trtexec tuning cache

/// The whole content of file; throws UsageError naming what (e.g. "routes file"), the path and
/// why when it is missing, not a regular file (following links), or larger than max_bytes.
std::string read_bounded_file(const std::filesystem::path& file, std::uint64_t max_bytes, const std::string& what);

}  // namespace routetune
