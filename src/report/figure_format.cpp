// Fixed decimals, so that columns of figures line up and tests can compare text exactly.
#include "report/figure_format.hpp"

#include <algorithm>
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

std::size_t display_width(const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string truncate_display(const std::string& text, std::size_t width) {
    if (display_width(text) <= width) return text;
    if (width == 0) return "";
    std::string out;
    std::size_t columns = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        bool starts = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
        if (starts && ++columns == width) break;
        out += text[i];
    }
    return out + "…";
}

}  // namespace routetune
