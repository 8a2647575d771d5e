// Placeholder expansion. find_placeholders scans an item for '{', reads an identifier
// ([A-Za-z_][A-Za-z0-9_]*) up to the matching '}' and records the use; anything else between
// braces is left as text. expand_argv replaces a whole-item placeholder by its list of values
// and splices single values into larger items.
#include "spec/placeholders.hpp"
#include "util/excerpt.hpp"

#include "routetune/error.hpp"

namespace routetune {

namespace {

bool is_identifier_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_identifier_char(char c) { return is_identifier_start(c) || (c >= '0' && c <= '9'); }

const std::vector<std::string>& lookup(const PlaceholderValues& values, const std::string& name) {
    auto it = values.find(name);
    if (it == values.end()) {
        std::string known;
        for (const auto& [key, unused] : values) known += (known.empty() ? "{" : ", {") + key + "}";
        throw UsageError("unknown placeholder {" + name + "} (valid here: " +
                         (known.empty() ? std::string("none") : known) + ")");
    }
    return it->second;
}

const std::string& single_value(const PlaceholderValues& values, const std::string& name,
                                std::string_view item) {
    const auto& list = lookup(values, name);
    if (list.size() != 1) {
        throw UsageError("placeholder {" + name + "} stands for " + std::to_string(list.size()) +
                         " argv items and must be an argv item of its own, not part of " +
                         quoted_excerpt(item));
    }
    return list.front();
}

}  // namespace

const std::vector<std::string>& spec_placeholder_names() {
    static const std::vector<std::string> names = {"compiler", "flags",   "artifact", "input",
                                                   "output",   "metrics", "workdir",  "spec_dir"};
    return names;
}

std::vector<PlaceholderUse> find_placeholders(std::string_view item) {
    std::vector<PlaceholderUse> uses;
    std::size_t pos = 0;
    while ((pos = item.find('{', pos)) != std::string_view::npos) {
        std::size_t end = pos + 1;
        if (end < item.size() && is_identifier_start(item[end])) {
            while (end < item.size() && is_identifier_char(item[end])) ++end;
            if (end < item.size() && item[end] == '}') {
                PlaceholderUse use;
                use.name = std::string(item.substr(pos + 1, end - pos - 1));
                use.offset = pos;
                use.whole_item = pos == 0 && end + 1 == item.size();
                uses.push_back(std::move(use));
                pos = end + 1;
                continue;
            }
        }
        ++pos;
    }
    return uses;
}

std::string expand_text(std::string_view text, const PlaceholderValues& values) {
    std::string result;
    std::size_t copied = 0;
    for (const auto& use : find_placeholders(text)) {
        result.append(text.substr(copied, use.offset - copied));
        result += single_value(values, use.name, text);
        copied = use.offset + use.name.size() + 2;
    }
    result.append(text.substr(copied));
    return result;
}

std::vector<std::string> expand_argv(const std::vector<std::string>& argv_template,
                                     const PlaceholderValues& values) {
    std::vector<std::string> argv;
    for (const auto& item : argv_template) {
        auto uses = find_placeholders(item);
        if (uses.size() == 1 && uses.front().whole_item) {
            const auto& list = lookup(values, uses.front().name);
            argv.insert(argv.end(), list.begin(), list.end());
        } else {
            argv.push_back(expand_text(item, values));
        }
    }
    return argv;
}

}  // namespace routetune
