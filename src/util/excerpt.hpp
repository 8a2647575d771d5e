// Quoting untrusted text in a message or a report: bounded in length and free of control
// bytes, or whole with its controls (and the bidirectional overrides that reorder what a reader
// sees) escaped.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace routetune {

/// Text for a message: 'text' with at most max_bytes shown (then "... (N bytes)"), control
/// bytes, backslashes and non-ASCII bytes escaped as \xNN, so a hostile token can neither
/// flood nor garble a terminal.
std::string quoted_excerpt(std::string_view text, std::size_t max_bytes = 80);

/// quoted_excerpt without the quotes, for text a message goes on with ("so write -fx=off") or a
/// library's own message that may carry the input's bytes (a JSON parser's "last read: ...").
std::string unquoted_excerpt(std::string_view text, std::size_t max_bytes = 80);

/// text for a table cell or a report line: whole and still UTF-8, but control bytes (below
/// 0x20, 0x7f) escaped as \xNN, and the C1 controls (U+0080..U+009F) and the
/// bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069) as
/// \u{NNNN}; invalid UTF-8 bytes as \xNN.
std::string displayable(std::string_view text);

/// The offset of the first control byte (below 0x20, or 0x7f) in text; npos when none.
std::size_t control_byte_at(std::string_view text);

/// "" when text holds no control byte, else why it is refused: "'16\x00-fplugin=...' holds a
/// control character (\x00 at byte 2); a knob value may hold none: a NUL would cut it short at
/// the compiler" (the one rule for every knob value that enters routetune).
std::string knob_value_control_error(std::string_view text);

}  // namespace routetune
