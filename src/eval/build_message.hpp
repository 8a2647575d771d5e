// The one line of a failed build's log that says why it failed.
#pragma once

#include <string>

namespace routetune {

/// The line of log that names the failure: the first line containing "error:" (gcc, clang,
/// nvcc, ld: "error: ...", "internal compiler error: ..."), else the last line containing
/// "fatal" or "Error", else the last non-empty line; trimmed, at most 200 bytes; "" for an
/// empty log. Warnings printed before or after the error are never chosen over it.
std::string build_error_line(const std::string& log);

}  // namespace routetune
