#include "util/excerpt.hpp"

#include <algorithm>
#include <cstdio>

namespace routetune {

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
    std::string out = "'";
    std::size_t shown = std::min(text.size(), max_bytes);
    for (std::size_t i = 0; i < shown; ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
            out += escaped;
        }
    }
    out += "'";
    if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

}  // namespace routetune
