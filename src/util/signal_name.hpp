// Signals by name in messages: "SIGILL (signal 4)" rather than a bare number.
#pragma once

#include <string>

namespace routetune {

/// "SIG<abbrev> (signal N)" for a signal the C library names, else "signal N".
std::string signal_name(int signal);

}  // namespace routetune
