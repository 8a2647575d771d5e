// Quoting untrusted text in a message: bounded in length and free of control bytes.
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

}  // namespace routetune
