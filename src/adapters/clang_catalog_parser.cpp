// Clang's self-descriptions, line by line. `--autocomplete=-f` prints "NAME\tHELP" per driver
// option; a switch is a name without a trailing '=' that is not itself a `no-` form.
// `--help-list-hidden` prints "  --NAME=<TYPE>  - HELP" with the values of an enum on the
// following more deeply indented "    =VALUE  -   HELP" lines; `--print-all-options` prints
// "  --NAME  = VALUE  (default: DEFAULT)" per option whose value LLVM can print.
#include "adapters/clang_catalog_parser.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "adapters/clang_llvm_flags.hpp"
#include "util/text.hpp"

namespace routetune {

namespace {

struct LlvmOption {
    std::string type;   // "", "int", "uint", "value", ...
    std::string help;
    std::vector<std::string> values;
};

bool is_integer(std::string_view text) {
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

// "  --name=<type>   - help" → name, type, help; "    =value  -   help" → an enum value of
// the option before.
std::map<std::string, LlvmOption> parse_help_list(std::string_view help_list) {
    std::map<std::string, LlvmOption> options;
    std::string last;
    for (auto line : split_lines(help_list)) {
        if (line.starts_with("    =") && !last.empty()) {
            auto end = line.find_first_of(" \t", 5);
            options[last].values.emplace_back(line.substr(5, end == std::string_view::npos ? end : end - 5));
            continue;
        }
        if (!line.starts_with("  --")) {
            last.clear();
            continue;
        }
        auto end = line.find_first_of(" \t", 4);
        std::string_view spelling = line.substr(4, end == std::string_view::npos ? end : end - 4);
        auto dash = line.find(" - ", 4);
        LlvmOption option;
        if (dash != std::string_view::npos) option.help = std::string(trim(line.substr(dash + 3)));
        auto equals = spelling.find("=<");
        std::string name(spelling.substr(0, equals));
        if (equals != std::string_view::npos) option.type = std::string(spelling.substr(equals + 2, spelling.size() - equals - 3));
        options[name] = std::move(option);
        last = name;
    }
    return options;
}

// "  --name   = value   (default: default)" → name → default.
std::map<std::string, std::string> parse_print_all(std::string_view print_all) {
    std::map<std::string, std::string> defaults;
    for (auto line : split_lines(print_all)) {
        auto text = trim(line);
        if (!text.starts_with("--")) continue;
        auto open = text.rfind("(default: ");
        if (open == std::string_view::npos || !text.ends_with(")")) continue;
        std::string value(trim(text.substr(open + 10, text.size() - open - 11)));
        if (value.empty() || value.starts_with("*")) continue;
        auto end = text.find_first_of(" \t=");
        defaults[std::string(text.substr(2, end - 2))] = value;
    }
    return defaults;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_clang_autocomplete(std::string_view text) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (auto line : split_lines(text)) {
        auto tab = line.find('\t');
        std::string name(trim(line.substr(0, tab)));
        if (name.empty() || name.front() != '-') continue;
        entries.emplace_back(name, tab == std::string_view::npos ? "" : std::string(trim(line.substr(tab + 1))));
    }
    return entries;
}

std::vector<Knob> clang_switch_knobs(const std::vector<std::pair<std::string, std::string>>& entries) {
    std::set<std::string> names;
    for (const auto& entry : entries) names.insert(entry.first);
    std::vector<Knob> knobs;
    for (const auto& [name, help] : entries) {
        if (name.size() < 3 || name.back() == '=' || name.compare(2, 3, "no-") == 0) continue;
        char prefix = name[1];
        std::string stem = name.substr(2);
        bool wanted = prefix == 'f' ? is_clang_optimisation_switch(stem)
                                    : prefix == 'm' && names.count("-mno-" + stem) > 0;
        if (!wanted || stem.find_first_of("=: ") != std::string::npos) continue;
        Knob knob;
        knob.name = name;
        knob.values = {"on", "off"};
        knob.help = help;
        knob.tags = {prefix == 'f' ? "optimizer" : "target"};
        if (is_unsafe_clang_knob(name)) knob.tags.push_back("unsafe");
        knobs.push_back(std::move(knob));
    }
    return knobs;
}

std::vector<std::string> parse_clang_cpus(std::string_view text) {
    std::vector<std::string> cpus;
    bool listing = false;
    for (auto line : split_lines(text)) {
        if (line.find("Available CPUs for this target") != std::string_view::npos) {
            listing = true;
            continue;
        }
        auto name = trim(line);
        if (!listing || name.empty()) continue;
        if (name.find(' ') != std::string_view::npos) break;  // "Use -mcpu or -mtune to specify ..."
        cpus.emplace_back(name);
    }
    return cpus;
}

std::vector<std::string> parse_clang_valid_cpus(std::string_view diagnostics) {
    for (auto line : split_lines(diagnostics)) {
        auto are = line.find("valid target CPU values are: ");
        if (are != std::string_view::npos) return split_words(line.substr(are + 29), ", \t\r");
    }
    return {};
}

std::vector<Knob> parse_llvm_options(std::string_view help_list, std::string_view print_all,
                                     const std::string& target_prefix) {
    auto options = parse_help_list(help_list);
    auto defaults = parse_print_all(print_all);
    std::vector<Knob> knobs;
    for (const auto& [name, option] : options) {
        auto found = defaults.find(name);
        if (found == defaults.end() || !is_llvm_optimisation_option(name, target_prefix)) continue;
        const std::string& value = found->second;
        Knob knob;
        knob.name = std::string(kMllvmKnobPrefix) + name;
        knob.help = option.help;
        knob.tags = {"mllvm"};
        if (option.type.empty() && (value == "0" || value == "1")) {
            knob.values = {"on", "off"};
            knob.default_value = value == "1" ? "on" : "off";
        } else if ((option.type == "int" || option.type == "uint") && is_integer(value)) {
            knob.type = KnobType::Int;
            knob.bounded = option.type == "uint";
            knob.max = option.type == "uint" ? 4294967295LL : 0;
            knob.default_value = value;
        } else if (option.type == "value" && !option.values.empty() &&
                   std::find(option.values.begin(), option.values.end(), value) != option.values.end()) {
            knob.type = KnobType::Enum;
            knob.values = option.values;
            knob.default_value = value;
        } else {
            continue;
        }
        if (is_unsafe_clang_knob(knob.name)) knob.tags.push_back("unsafe");
        knobs.push_back(std::move(knob));
    }
    return knobs;
}

std::vector<std::string> parse_cc1_arguments(std::string_view line) {
    std::vector<std::string> arguments;
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '"') continue;
        std::string argument;
        for (++i; i < line.size() && line[i] != '"'; ++i) {
            if (line[i] == '\\' && i + 1 < line.size()) ++i;
            argument += line[i];
        }
        arguments.push_back(std::move(argument));
    }
    return arguments;
}

std::string llvm_target_prefix(std::string_view triple) {
    if (triple.starts_with("x86_64") || triple.starts_with("i386") || triple.starts_with("i686")) return "x86-";
    if (triple.starts_with("aarch64")) return "aarch64-";
    if (triple.starts_with("powerpc") || triple.starts_with("ppc")) return "ppc-";
    if (triple.starts_with("riscv")) return "riscv-";
    if (triple.starts_with("arm")) return "arm-";
    return {};
}

}  // namespace routetune
