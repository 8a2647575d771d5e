// The subcommands of the routetune executable, one file each; main.cpp wires them to CLI11.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace routetune::cli {

/// A subcommand's action, run after parsing; returns the process exit code.
using Action = std::function<int()>;

/// Registers `knobs` on app; stores its action in action.
void add_knobs_command(CLI::App& app, Action& action);
/// Registers `expand` on app; stores its action in action.
void add_expand_command(CLI::App& app, Action& action);
/// Registers `tune` on app; stores its action in action.
void add_tune_command(CLI::App& app, Action& action);
/// Registers `build` on app; stores its action in action.
void add_build_command(CLI::App& app, Action& action);
/// Registers `report` on app; stores its action in action.
void add_report_command(CLI::App& app, Action& action);
/// Registers `serve` on app; stores its action in action.
void add_serve_command(CLI::App& app, Action& action);
/// Registers `inspect` on app; stores its action in action.
void add_inspect_command(CLI::App& app, Action& action);
/// Registers `simulate` on app; stores its action in action.
void add_simulate_command(CLI::App& app, Action& action);
/// Registers `import-trtexec` on app; stores its action in action.
void add_import_command(CLI::App& app, Action& action);
/// Registers `export-trtexec` on app; stores its action in action.
void add_export_command(CLI::App& app, Action& action);
/// Registers `worker` on app; stores its action in action.
void add_worker_command(CLI::App& app, Action& action);
/// Registers `promote` on app; stores its action in action.
void add_promote_command(CLI::App& app, Action& action);
/// Registers `verify` on app; stores its action in action.
void add_verify_command(CLI::App& app, Action& action);
/// Registers `flags` on app; stores its action in action.
void add_flags_command(CLI::App& app, Action& action);
/// Registers `audit` on app; stores its action in action.
void add_audit_command(CLI::App& app, Action& action);
/// Registers `gc` on app; stores its action in action.
void add_gc_command(CLI::App& app, Action& action);
/// Registers `review` on app; stores its action in action.
void add_review_command(CLI::App& app, Action& action);
/// Registers `retire` on app; stores its action in action.
void add_retire_command(CLI::App& app, Action& action);

}  // namespace routetune::cli
