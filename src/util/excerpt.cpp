#include "util/excerpt.hpp"

#include <algorithm>
#include <cstdio>

namespace routetune {

namespace {

// The first max_bytes of text with control bytes, backslashes and non-ASCII bytes as \xNN.
std::string escaped(std::string_view text, std::size_t max_bytes) {
    std::string out;
    std::size_t shown = std::min(text.size(), max_bytes);
    for (std::size_t i = 0; i < shown; ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else {
            char code[8];
            std::snprintf(code, sizeof code, "\\x%02x", c);
            out += code;
        }
    }
    return out;
}

std::string cut_note(std::string_view text, std::size_t max_bytes) {
    return text.size() > max_bytes ? "... (" + std::to_string(text.size()) + " bytes)" : "";
}

}  // namespace

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
    return "'" + escaped(text, max_bytes) + "'" + cut_note(text, max_bytes);
}

std::string unquoted_excerpt(std::string_view text, std::size_t max_bytes) {
    return escaped(text, max_bytes) + cut_note(text, max_bytes);
}

}  // namespace routetune
