// Checking a path routetune is asked to write (--output of tune, build, report, export-trtexec)
// before anything is written: like a careful compiler driver it writes only into a folder that
// exists, never through a symbolic link, never over a device, a FIFO or a folder, and replaces
// an existing file only when the caller recognises it as one routetune wrote.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace routetune {

/// Throws UsageError naming option and path unless path can be written: its folder exists (it
/// is not created), and path is absent or a regular file (not a link) that is_ours accepts
/// (is_ours empty: any regular file).
void check_output_path(const std::filesystem::path& path, const std::string& option,
                       const std::function<bool(const std::filesystem::path&)>& is_ours = {});

/// True when the first 64 KiB of file contain marker (how a report routetune wrote is recognised).
bool file_starts_with_marker(const std::filesystem::path& file, const std::string& marker);

}  // namespace routetune
