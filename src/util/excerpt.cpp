// Excerpts escape every byte outside printable ASCII; displayable keeps valid UTF-8 and escapes
// only what a terminal or a reader would not show as itself: control bytes, C1 controls and
// the bidirectional formatting characters, found by decoding each UTF-8 sequence.
#include "util/excerpt.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

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

// The code point of the UTF-8 sequence at text[i] and its length; length 0 when invalid.
std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t i) {
    unsigned char lead = static_cast<unsigned char>(text[i]);
    std::size_t length = lead >= 0xF0 && lead < 0xF8 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0;
    if (lead >= 0xF8 || length == 0 || i + length > text.size()) return {0, 0};
    char32_t code = lead & (0x7F >> length);
    for (std::size_t k = 1; k < length; ++k) {
        unsigned char next = static_cast<unsigned char>(text[i + k]);
        if ((next & 0xC0) != 0x80) return {0, 0};
        code = (code << 6) | (next & 0x3F);
    }
    bool overlong = (length == 3 && code < 0x800) || (length == 4 && code < 0x10000);
    if (overlong || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {0, 0};
    return {code, length};
}

bool is_hidden_control(char32_t code) {
    return (code >= 0x80 && code <= 0x9F) || code == 0x061C || code == 0x200E || code == 0x200F ||
           (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069);
}

}  // namespace

std::string displayable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    char code[16];
    for (std::size_t i = 0; i < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c >= 0x20 && c < 0x7f) {
                out += static_cast<char>(c);
            } else {
                std::snprintf(code, sizeof code, "\\x%02x", c);
                out += code;
            }
            ++i;
            continue;
        }
        auto [point, length] = decode_utf8(text, i);
        if (length == 0) {
            std::snprintf(code, sizeof code, "\\x%02x", c);
            out += code;
            ++i;
        } else if (is_hidden_control(point)) {
            std::snprintf(code, sizeof code, "\\u{%04X}", static_cast<unsigned>(point));
            out += code;
            i += length;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

std::size_t control_byte_at(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return i;
    }
    return std::string_view::npos;
}

std::string knob_value_control_error(std::string_view text) {
    std::size_t at = control_byte_at(text);
    if (at == std::string_view::npos) return "";
    char code[8];
    std::snprintf(code, sizeof code, "\\x%02x", static_cast<unsigned char>(text[at]));
    return quoted_excerpt(text) + " holds a control character (" + code + " at byte " + std::to_string(at) +
           "); a knob value may hold none: a NUL would cut it short at the compiler, other controls change it";
}

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
    return "'" + escaped(text, max_bytes) + "'" + cut_note(text, max_bytes);
}

std::string unquoted_excerpt(std::string_view text, std::size_t max_bytes) {
    return escaped(text, max_bytes) + cut_note(text, max_bytes);
}

}  // namespace routetune
