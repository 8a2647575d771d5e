#include "util/shell_quote.hpp"

namespace routetune {

std::string shell_quote(const std::string& item) {
    if (item.empty()) return "''";
    bool plain = true;
    for (unsigned char c : item) {
        bool safe = std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/' || c == '=' || c == ':' ||
                    c == ',' || c == '+' || c == '@' || c == '%';
        plain = plain && safe;
    }
    if (plain) return item;
    std::string quoted = "'";
    for (char c : item) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string shell_words(const std::vector<std::string>& items) {
    std::string line;
    for (const auto& item : items) line += (line.empty() ? "" : " ") + shell_quote(item);
    return line;
}

}  // namespace routetune
