// Scans the log line by line once, remembering the first "error:" line (compilers print the
// cause first and its consequences after), the last "fatal"/"Error" line (make, linkers,
// Python tracebacks end with theirs) and the last non-empty line, and returns the best found.
#include "eval/build_message.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

namespace routetune {

namespace {

std::string_view trimmed(std::string_view line) {
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) return {};
    auto last = line.find_last_not_of(" \t\r");
    return line.substr(first, last - first + 1);
}

}  // namespace

std::string build_error_line(const std::string& log) {
    std::optional<std::string_view> error, fatal, last;
    std::string_view text(log);
    while (!text.empty()) {
        auto end = text.find('\n');
        std::string_view line = trimmed(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.empty()) continue;
        last = line;
        if (!error && line.find("error:") != std::string_view::npos) error = line;
        if (line.find("fatal") != std::string_view::npos || line.find("Error") != std::string_view::npos) fatal = line;
    }
    std::string_view chosen = error ? *error : fatal ? *fatal : last ? *last : std::string_view();
    return std::string(chosen.substr(0, std::min<std::size_t>(chosen.size(), 200)));
}

}  // namespace routetune
