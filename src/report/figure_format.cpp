// Fixed decimals, so that columns of figures line up and tests can compare text exactly.
#include "report/figure_format.hpp"

#include <cstdio>

namespace routetune {

std::string format_ms(double seconds) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f", seconds * 1000.0);
    return buffer;
}

std::string format_percent(double fraction) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.1f%%", fraction * 100);
    return buffer;
}

std::string one_line(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    auto first = out.find_first_not_of(' ');
    if (first == std::string::npos) return "";
    auto last = out.find_last_not_of(' ');
    return out.substr(first, last - first + 1);
}

}  // namespace routetune
