// What each option's value is, as --help, the man pages and the completion show it ("--jobs N",
// "--time-limit DURATION"): one table for every command, so one name means one thing everywhere.
#pragma once

#include <CLI/CLI.hpp>

namespace routetune::cli {

/// Gives every option of app's subcommands that CLI11 would show as a bare "TEXT" (or "INT",
/// "FLOAT") the type name the table holds for its long name (or, for a positional argument,
/// its name); an option the table does not know keeps CLI11's name, which a test refuses.
void name_option_types(CLI::App& app);

}  // namespace routetune::cli
