// Manuals generated from the command-line definitions themselves: one man page per
// subcommand (routetune-<command>(1)) and a bash completion script, both read from the same
// CLI11 app that prints --help, so they cannot drift from it.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.hpp"

namespace routetune::cli {

/// The man page (roff) of command, a subcommand of program: NAME, SYNOPSIS, DESCRIPTION,
/// OPTIONS (each with its value's type and default), EXIT STATUS (from the command's footer,
/// which begins "Exit codes:") and SEE ALSO.
std::string man_page(const CLI::App& command, const std::string& program, const std::string& version);

/// A bash completion script for program: its subcommands, each subcommand's options, and
/// file names for everything else.
std::string bash_completion(const CLI::App& app, const std::string& program);

/// The visible subcommands of app (those with a group), in the order they were added.
std::vector<const CLI::App*> visible_subcommands(const CLI::App& app);

/// Writes every visible subcommand's man page (routetune-<name>.1) and the bash completion
/// (routetune.bash) into folder, creating it; throws RuntimeFailure naming a file it cannot write.
void write_manuals(const CLI::App& app, const std::filesystem::path& folder, const std::string& version);

/// Registers the hidden `manuals --output DIR` command, run by the build to generate the pages.
void add_manuals_command(CLI::App& app, Action& action);

}  // namespace routetune::cli
