// Error types shared by the library and the command line. The library never exits the
// process: it throws one of these, and src/cli/main.cpp maps each to an exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace routetune {

/// Bad input (spec, expression, route, option): the message names the file, line, token and
/// what would be valid. The command line exits 2; nothing has run.
class UsageError : public std::runtime_error {
public:
    explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

/// A failure of the tool itself or its surroundings (unwritable cache, missing tool at run
/// time, no eligible reference): the command line exits 1.
class RuntimeFailure : public std::runtime_error {
public:
    explicit RuntimeFailure(const std::string& message) : std::runtime_error(message) {}
};

/// `--continue` found a study recorded under another environment fingerprint; the message
/// lists the differences. The command line exits 3.
class FingerprintMismatch : public std::runtime_error {
public:
    explicit FingerprintMismatch(const std::string& message) : std::runtime_error(message) {}
};

/// The study was interrupted (SIGINT/SIGTERM); its state is saved. The command line exits 130.
class Interrupted : public std::runtime_error {
public:
    explicit Interrupted(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace routetune
