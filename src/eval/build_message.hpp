// The one line of a failed build's log that says why it failed.
#pragma once

#include <string>

namespace routetune {

/// The line of log that names the failure: the first line where the linker names what it
/// could not resolve ("undefined reference to", "multiple definition of", "cannot find -l",
/// lld's "undefined symbol:"), else the first line containing "error:" that is not a driver's
/// summary of a failed link (gcc, clang, nvcc: "file:line:col: error: ...", "internal compiler
/// error: ..."), else that summary ("collect2: error: ld returned 1 exit status"), else the
/// last line containing "fatal" or "Error", else the last non-empty line; trimmed, at most 200
/// bytes; "" for an empty log. Warnings printed before or after the error are never chosen.
std::string build_error_line(const std::string& log);

}  // namespace routetune
