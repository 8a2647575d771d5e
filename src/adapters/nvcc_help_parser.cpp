// Parsing `nvcc --help` / `ptxas --help`. A header line starts with "--"; its last
// parenthesised token is the short name and what lies between the long name and it is the
// argument ("{a|b}", "<a|b>", "<lo..hi>", "[a,b]" list values). Indented lines that follow
// form the description; "Allowed values for this option:" may wrap over several lines and
// ends at a '.', "Default value:" gives the default. Quotes are stripped from values.
#include "adapters/nvcc_help_parser.hpp"

#include <charconv>
#include <regex>
#include "util/text.hpp"

namespace routetune {

namespace {

std::string unquote(std::string value) {
    value = std::string(trim(value));
    if (value.size() >= 2 && value.front() == '\'' && value.back() == '\'') value = value.substr(1, value.size() - 2);
    return value;
}

std::vector<std::string> split_values(std::string_view text, char separator) {
    std::vector<std::string> values;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find(separator, pos);
        if (end == std::string_view::npos) end = text.size();
        std::string value = unquote(std::string(text.substr(pos, end - pos)));
        if (!value.empty()) values.push_back(value);
        pos = end + 1;
    }
    return values;
}

std::optional<std::int64_t> to_int(std::string_view text) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

// Fills values / min / max from the argument text.
void read_argument(NvccHelpOption& option) {
    const std::string& arg = option.argument;
    if (arg.size() < 2) return;
    char open = arg.front();
    char close = arg.back();
    bool braced = (open == '{' && close == '}') || (open == '<' && close == '>') || (open == '[' && close == ']');
    if (!braced) return;
    std::string_view inner(arg.data() + 1, arg.size() - 2);
    if (inner.find('|') != std::string_view::npos) {
        option.values = split_values(inner, '|');
    } else if (open == '[' && inner.find(',') != std::string_view::npos) {
        option.values = split_values(inner, ',');
    } else if (auto dots = inner.find(".."); dots != std::string_view::npos) {
        auto lo = to_int(inner.substr(0, dots));
        auto hi = to_int(inner.substr(dots + 2));
        if (lo && hi && *lo <= *hi) {
            option.min = lo;
            option.max = hi;
        }
    }
}

std::string first_sentence(const std::string& paragraph) {
    std::size_t end = paragraph.find(". ");
    std::string sentence = end == std::string::npos ? paragraph : paragraph.substr(0, end + 1);
    if (sentence.size() > 200) sentence = sentence.substr(0, 197) + "...";
    return sentence;
}

// Reads the description lines of one option: help, allowed values, default.
void read_description(NvccHelpOption& option, const std::vector<std::string>& lines) {
    static const std::string allowed_marker = "Allowed values for this option:";
    static const std::string default_marker = "Default value:";
    std::string paragraph;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string line(trim(lines[i]));
        if (line.rfind(allowed_marker, 0) == 0) {
            std::string list = line.substr(allowed_marker.size());
            while (!trim(list).empty() && trim(list).back() != '.' && i + 1 < lines.size()) list += trim(lines[++i]);
            list = std::string(trim(list));
            if (!list.empty() && list.back() == '.') list.pop_back();
            if (option.values.empty()) option.values = split_values(list, ',');
            continue;
        }
        if (line.rfind(default_marker, 0) == 0) {
            std::string value(trim(line.substr(default_marker.size())));
            if (!value.empty() && value.back() == '.') value.pop_back();
            option.default_value = unquote(value);
            continue;
        }
        if (paragraph.empty() || !line.empty()) {
            if (!paragraph.empty()) paragraph += ' ';
            paragraph += line;
        }
    }
    option.help = first_sentence(std::string(trim(paragraph)));
}

}  // namespace

std::vector<NvccHelpOption> parse_nvcc_help(std::string_view text) {
    static const std::regex header(R"(^(--[A-Za-z0-9][A-Za-z0-9_\-]*)(.*?)\s*$)");
    static const std::regex short_name(R"(^(.*?)\s*\((-[^()\s]+)\)$)");
    std::vector<NvccHelpOption> options;
    std::vector<std::string> description;
    bool collecting = false;
    auto flush = [&] {
        if (collecting) read_description(options.back(), description);
        description.clear();
        collecting = false;
    };
    for (std::string_view view : split_lines(text)) {
        std::string line(view);
        std::smatch match;
        if (line.rfind("--", 0) == 0 && std::regex_match(line, match, header)) {
            flush();
            NvccHelpOption option;
            option.long_name = match[1];
            std::string rest(trim(match[2].str()));
            std::smatch shortm;
            if (std::regex_match(rest, shortm, short_name)) {
                option.short_name = shortm[2];
                rest = std::string(trim(shortm[1].str()));
            }
            if (rest.rfind("--", 0) != 0) option.argument = rest;
            read_argument(option);
            options.push_back(std::move(option));
            collecting = true;
            continue;
        }
        bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
        if (indented) {
            if (collecting) description.push_back(line);
        } else if (!trim(line).empty()) {
            flush();
        }
    }
    flush();
    return options;
}

const NvccHelpOption* find_help_option(const std::vector<NvccHelpOption>& options, std::string_view long_name) {
    for (const auto& option : options) {
        if (option.long_name == long_name) return &option;
    }
    return nullptr;
}

}  // namespace routetune
