// Small pieces the subcommands share: reading the spec a command names, the store options, and
// the command line as recorded in a study (durations: spec/value_ranges.hpp).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/spec.hpp"

namespace routetune::cli {

/// The argv of this process joined with spaces (for the study header).
std::string joined_command_line();

/// The argv of this process as items (for audit entries).
const std::vector<std::string>& command_argv();

/// Remembers argc/argv for joined_command_line (called by main).
void remember_command_line(int argc, char** argv);

/// The adapter a command uses and how it is pointed.
struct AdapterChoice {
    std::string name = "gcc";
    AdapterOptions options;
};

/// The spec's [compiler] (when spec is set), overridden by --adapter, --compiler and --base
/// (base: one string split on whitespace; has_base: the option was given).
AdapterChoice choose_adapter(const Spec* spec, const std::string& adapter, const std::string& compiler,
                             const std::string& base, bool has_base);

/// Where a command's study store is: --store (a postgresql:// URL or a file path) and --study.
struct StoreArguments {
    std::string store;
    std::string study;
};

/// Adds --store URL|PATH and --study NAME to command (shared by tune, worker, report, simulate,
/// promote).
void add_store_options(CLI::App& command, StoreArguments& arguments);

/// True when stderr is a terminal.
bool stderr_is_tty();

}  // namespace routetune::cli
