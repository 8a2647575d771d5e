// Sharing one process's answer between two askers. Study start-up asks the compiler
// `--version` twice with the same command line: once for the identity that keys the catalog
// cache (adapters/catalog_cache), once for the environment fingerprint (eval/fingerprint). The
// first asker remembers its result here and the second takes it instead of running the
// program again, but only when the command is exactly the same: the same argv, the same
// environment the child would get, a program file with the same device, inode, size and
// modification and change times, and within a few seconds. A remembered result is handed out
// once, then forgotten.
#pragma once

#include <optional>

#include "util/process.hpp"

namespace routetune {

/// Keeps result (a successful run of spec) for one later take_remembered_run of the same command.
void remember_run(const ProcessSpec& spec, const ProcessResult& result);

/// The result remember_run kept for this exact command (argv, environment, unchanged program
/// file, at most 10 s ago, output within spec.output_cap), removed from the memory; nullopt
/// when there is none.
std::optional<ProcessResult> take_remembered_run(const ProcessSpec& spec);

}  // namespace routetune
