// Small helpers the GPU adapters share for discovery: finding a tool, running it for its
// help or version text, and describing it as a CompilerIdentity.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/catalog.hpp"

namespace routetune {

/// The absolute path of program (searched on PATH unless it has a '/'); throws UsageError
/// naming the adapter and the [compiler] path setting when it is not found.
std::filesystem::path require_tool(const std::string& adapter, const std::string& program);

/// Runs argv (timeout 60 s) and returns its stdout followed by its stderr; throws UsageError
/// naming the command, its exit status and the first line of its stderr when it fails.
std::string run_tool_for_text(const std::string& adapter, const std::vector<std::string>& argv);

/// The first line of text containing marker, trimmed; else the first non-empty line; else "".
std::string version_line(std::string_view text, std::string_view marker = "");

/// The identity of the tool at path: adapter, path, version, sha256 of its bytes.
CompilerIdentity identify_tool(const std::string& adapter, const std::filesystem::path& path, std::string version);

/// The catalog of identity: from the catalog cache when options allow it and the entry
/// matches the tool's path and bytes, else from fresh() (then stored); extra names the
/// adapter's discovery version. options.declared_knobs are added afterwards, never cached.
Catalog discover_with_cache(const AdapterOptions& options, const CompilerIdentity& identity, const std::string& extra,
                            const std::function<Catalog()>& fresh);

}  // namespace routetune
