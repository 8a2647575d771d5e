#include "util/signal_name.hpp"

#include <string.h>

namespace routetune {

std::string signal_name(int signal) {
    const char* abbrev = sigabbrev_np(signal);
    std::string number = "signal " + std::to_string(signal);
    return abbrev ? "SIG" + std::string(abbrev) + " (" + number + ")" : number;
}

}  // namespace routetune
