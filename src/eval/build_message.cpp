// Scans the log line by line once, remembering the first "error:" line that is the compiler's
// own diagnostic (compilers print the cause first and its consequences after), the first line
// where the linker names what it could not resolve ("undefined reference to", "multiple
// definition of", "cannot find -l..."), the first driver summary of a failed link ("collect2:
// error: ld returned 1 exit status", clang's "error: linker command failed"), the last
// "fatal"/"Error" line (make, Python tracebacks end with theirs) and the last non-empty line.
// A driver's link summary only repeats that the linker failed, so the linker's own line wins
// over it; otherwise the first error line wins, then the fatal line, then the last line.
#include "eval/build_message.hpp"

#include <algorithm>
#include <array>
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

bool contains(std::string_view line, std::string_view part) { return line.find(part) != std::string_view::npos; }

// A compiler driver's one-line report that the linker failed, which names no cause.
bool is_link_summary(std::string_view line) {
    return contains(line, "ld returned") || contains(line, "linker command failed");
}

// A line where the linker names what it could not do (GNU ld, gold, lld).
bool is_linker_cause(std::string_view line) {
    static constexpr std::array<std::string_view, 5> kCauses{"undefined reference to", "multiple definition of",
                                                             "cannot find -l", "undefined symbol:",
                                                             "relocation truncated"};
    return std::any_of(kCauses.begin(), kCauses.end(), [&](std::string_view cause) { return contains(line, cause); });
}

}  // namespace

std::string build_error_line(const std::string& log) {
    std::optional<std::string_view> error, linker, link_summary, fatal, last;
    std::string_view text(log);
    while (!text.empty()) {
        auto end = text.find('\n');
        std::string_view line = trimmed(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (line.empty()) continue;
        last = line;
        if (is_link_summary(line)) {
            if (!link_summary) link_summary = line;
        } else if (!error && contains(line, "error:")) {
            error = line;
        }
        if (!linker && is_linker_cause(line)) linker = line;
        if (contains(line, "fatal") || contains(line, "Error")) fatal = line;
    }
    std::string_view chosen = linker ? *linker
                              : error ? *error
                              : link_summary ? *link_summary
                              : fatal ? *fatal
                              : last ? *last : std::string_view();
    return std::string(chosen.substr(0, std::min<std::size_t>(chosen.size(), 200)));
}

}  // namespace routetune
