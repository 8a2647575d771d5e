// What routetune says when its first word names no command: the closest commands by name.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace routetune::cli {

/// "" when argv's first argument is an option or a command of app (hidden ones included), or
/// there is none; else "unknown command 'tun'; did you mean 'tune'?" naming the commands
/// within two edits or starting with the word, or listing every visible command when none is close.
std::string unknown_command_message(const CLI::App& app, int argc, char** argv);

}  // namespace routetune::cli
