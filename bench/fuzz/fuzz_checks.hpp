// What every fuzz target asks of an error message, whatever the input: it is bounded (a
// hostile token is cut, not echoed whole) and free of control bytes other than newlines (it
// cannot garble a terminal). A broken rule aborts, which libFuzzer reports as a crash.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "util/excerpt.hpp"

namespace routetune::fuzz {

/// The longest message a parser may give for any input.
inline constexpr std::size_t kMaxMessageBytes = 4096;

/// Aborts (printing why) unless message is short and free of control bytes but '\n'.
inline void check_message(std::string_view message) {
    if (message.size() > kMaxMessageBytes) {
        std::fprintf(stderr, "message of %zu bytes (at most %zu allowed)\n", message.size(), kMaxMessageBytes);
        std::abort();
    }
    for (std::size_t i = 0; i < message.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(message[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f) {
            std::size_t from = i < 80 ? 0 : i - 80;
            std::fprintf(stderr, "control byte 0x%02x at %zu of the message, around: %s\n", c, i,
                         quoted_excerpt(message.substr(from), 160).c_str());
            std::abort();
        }
    }
}

}  // namespace routetune::fuzz
