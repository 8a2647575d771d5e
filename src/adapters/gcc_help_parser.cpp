// GCC prints one option per line, "  OPTION<spaces/tabs>STATE". OPTION is `-fname`,
// `-fname=`, `-fname=[a|b]`, `-fname=<lo,hi>`, `-fname=<number>` or `--param=name=...`;
// STATE is [enabled], [disabled], the current value, [default], nothing, an alias target
// (`-fexceptions`) or [available in LANG]. Each line becomes at most one knob; aliases and
// options of other languages than the compiler's are skipped. A `-fname` bool and a `-fname=` value option of the
// same name merge: a bounded value option (`-flifetime-dse=<0,2>`) already covers the bool;
// otherwise they become one open enum whose values on/off select -fname/-fno-name and any
// other value becomes -fname=VALUE. Target help ends with sections naming the values of
// `-mname=` options; they turn open target options into bounded enums. Open options left
// with neither values nor a default (`-mcpu=`, `-fpatchable-function-entry=`) are dropped:
// nothing about them can be tuned.
#include "adapters/gcc_help_parser.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <regex>
#include "util/text.hpp"

namespace routetune {

namespace {

std::optional<std::int64_t> to_int(std::string_view text) {
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

// One "  OPTION  STATE" line of the help output; nullopt for headers, blank and section lines.
struct HelpLine {
    std::string option;
    std::string state;
};

std::optional<HelpLine> split_help_line(std::string_view line) {
    if (line.size() < 3 || line[0] != ' ' || line[1] != ' ' || line[2] != '-') return std::nullopt;
    line = trim(line);
    auto end = line.find_first_of(" \t");
    HelpLine parsed{std::string(line.substr(0, end)), ""};
    if (end != std::string_view::npos) parsed.state = std::string(trim(line.substr(end)));
    return parsed;
}

// The knob an option of the help is about ("-fx=[a|b]" -> "-fx", "--param=x=<0,9>" ->
// "-param:x") and whether the line is its value form (a '=' after the name).
std::pair<std::string, bool> option_knob(const std::string& option) {
    if (option.starts_with("--param=")) {
        auto eq = option.find('=', 8);
        return {"-param:" + option.substr(8, eq - 8), eq != std::string::npos};
    }
    auto eq = option.find('=');
    return {option.substr(0, eq), eq != std::string::npos};
}

// Fills type, values/range and default of knob from the text after '=' and the state.
void describe_value_option(Knob& knob, std::string_view spec, const std::string& state) {
    bool state_known = !state.empty() && state != "[default]";
    if (spec.size() >= 2 && spec.front() == '[' && spec.back() == ']') {
        knob.type = KnobType::Enum;
        knob.values = split_words(spec.substr(1, spec.size() - 2), "|");
        if (state_known) knob.default_value = state;
        return;
    }
    if (spec.size() >= 2 && spec.front() == '<' && spec.back() == '>') {
        knob.type = KnobType::Int;
        auto parts = split_words(spec.substr(1, spec.size() - 2), ",");
        auto lo = parts.size() == 2 ? to_int(parts[0]) : std::nullopt;
        auto hi = parts.size() == 2 ? to_int(parts[1]) : std::nullopt;
        knob.bounded = lo && hi;
        if (knob.bounded) {
            knob.min = *lo;
            knob.max = *hi;
        }
        auto value = to_int(state);
        if (value && (!knob.bounded || (*value >= knob.min && *value <= knob.max))) {
            knob.default_value = state;
        } else if (value) {
            knob.help = "the compiler's own default " + state + " lies outside the range (chosen by the compiler)";
            knob.tags.push_back("default-outside-range");
        }
        return;
    }
    if (to_int(state)) {
        knob.type = KnobType::Int;
        knob.bounded = false;
        knob.default_value = state;
        return;
    }
    knob.type = KnobType::Enum;
    knob.bounded = false;
    if (state_known) knob.default_value = state;
}

// Parses the option lines of one help section; prefix is "-f", "-m" or "--param=".
// Options GCC marks "[available in LANG, ...]" are kept (with an unknown default) only when
// language is one of them.
std::map<std::string, Knob> parse_options(std::string_view text, std::string_view prefix,
                                          const std::string& tag, std::string_view language) {
    std::map<std::string, Knob> bools;
    std::map<std::string, Knob> valued;
    for (auto line : split_lines(text)) {
        auto parsed = split_help_line(line);
        if (!parsed || !parsed->option.starts_with(prefix)) continue;
        std::string state = parsed->state;
        bool alias = state.size() > 1 && state[0] == '-' && !std::isdigit(static_cast<unsigned char>(state[1]));
        if (alias) continue;
        if (state.starts_with("[available in ") && state.back() == ']') {
            auto languages = split_words(std::string_view(state).substr(14, state.size() - 15), ", ");
            if (std::find(languages.begin(), languages.end(), language) == languages.end()) continue;
            state.clear();
        }
        Knob knob;
        knob.tags.push_back(tag);
        std::string option = parsed->option;
        auto eq = option.find('=', prefix.size());
        if (prefix == "--param=") {
            if (eq == std::string::npos) continue;
            knob.name = "-param:" + option.substr(prefix.size(), eq - prefix.size());
        } else {
            knob.name = option.substr(0, eq);
        }
        if (!is_valid_knob_name(knob.name)) continue;
        if (eq == std::string::npos) {
            knob.type = KnobType::Bool;
            knob.values = {"on", "off"};
            if (state == "[enabled]") knob.default_value = "on";
            if (state == "[disabled]") knob.default_value = "off";
            bools[knob.name] = std::move(knob);
        } else {
            describe_value_option(knob, std::string_view(option).substr(eq + 1), state);
            valued[knob.name] = std::move(knob);
        }
    }
    for (auto& [name, knob] : valued) {
        auto same = bools.find(name);
        if (same == bools.end()) continue;
        if (knob.bounded) {
            bools.erase(same);
            continue;
        }
        knob.type = KnobType::Enum;
        knob.bounded = false;
        knob.values = {"on", "off"};
        knob.min = knob.max = 0;
        knob.default_value = same->second.default_value;
        bools.erase(same);
    }
    for (auto& [name, knob] : bools) {
        bool negative = name.starts_with("-fno-") || name.starts_with("-mno-");
        if (negative && (bools.count(name.substr(0, 2) + name.substr(5)) || valued.count(name.substr(0, 2) + name.substr(5)))) continue;
        valued[name] = std::move(knob);
    }
    return valued;
}

std::vector<Knob> finish(std::map<std::string, Knob> knobs) {
    std::vector<Knob> result;
    for (auto& [name, knob] : knobs) {
        bool open = knob.type == KnobType::Enum && !knob.bounded;
        if (open && knob.values.empty() && knob.default_value.empty()) continue;
        if (is_unsafe_gcc_knob(name)) knob.tags.push_back("unsafe");
        // -Q prints -fshort-enums' "target default" (2) as [enabled]; most targets' is off.
        if (name == "-fshort-enums") knob.default_value.clear();
        result.push_back(std::move(knob));
    }
    return result;
}

}  // namespace

std::vector<Knob> parse_gcc_optimizers(std::string_view text, std::string_view language) {
    return finish(parse_options(text, "-f", "optimizer", language));
}

std::vector<Knob> parse_gcc_params(std::string_view text, std::string_view language) {
    auto knobs = parse_options(text, "--param=", "param", language);
    for (auto& [name, knob] : knobs) {
        if (knob.type == KnobType::Int && !knob.bounded) {
            // Unranged params are UInteger options: GCC accepts 0..INT_MAX (probing checks).
            knob.bounded = true;
            knob.min = 0;
            knob.max = 2147483647;
            if (knob.default_value.starts_with("-")) {
                // The -1 trap: "compiler decides" is printed as -1, which GCC rejects as input.
                knob.help = "the compiler's own default " + knob.default_value + " lies outside the range (chosen by the compiler)";
                knob.tags.push_back("default-outside-range");
                knob.default_value.clear();
            }
        }
    }
    std::vector<Knob> result;
    for (auto& [name, knob] : knobs) {
        if (is_unsafe_gcc_knob(name)) knob.tags.push_back("unsafe");
        result.push_back(std::move(knob));
    }
    return result;
}

std::vector<Knob> parse_gcc_target(std::string_view text, std::string_view language) {
    auto knobs = parse_options(text, "-m", "target", language);
    static const std::regex option_in_header(R"((-m[A-Za-z0-9_.-]+)=)");
    auto lines = split_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string header(trim(lines[i]));
        if (header.empty() || header[0] == '-' || header.back() != ':') continue;
        std::vector<std::string> values;
        for (std::size_t j = i + 1; j < lines.size() && !trim(lines[j]).empty(); ++j) {
            for (auto& word : split_words(lines[j], " \t\r")) values.push_back(word);
        }
        for (std::sregex_iterator it(header.begin(), header.end(), option_in_header), end; it != end; ++it) {
            auto found = knobs.find((*it)[1].str());
            if (found == knobs.end() || values.empty()) continue;
            Knob& knob = found->second;
            knob.type = KnobType::Enum;
            knob.bounded = true;
            knob.min = knob.max = 0;
            knob.values = values;
            bool cpu = knob.name == "-march" || knob.name == "-mtune";
            if (cpu && std::find(values.begin(), values.end(), "native") == values.end()) {
                knob.values.push_back("native");
            }
            if (std::find(knob.values.begin(), knob.values.end(), knob.default_value) == knob.values.end()) {
                knob.default_value.clear();
            }
        }
    }
    return finish(std::move(knobs));
}

void add_gcc_descriptions(std::vector<Knob>& knobs, std::string_view text) {
    std::map<std::string, std::string> descriptions;
    std::string* last = nullptr;
    std::string scratch;  // the wrapped lines of a description that is not kept
    for (auto line : split_lines(text)) {
        auto indent = line.find_first_not_of(' ');
        if (indent == std::string_view::npos) continue;
        if (indent >= 20 && last && line[indent] != '-') {
            *last += " " + std::string(trim(line));
            continue;
        }
        last = nullptr;
        auto parsed = split_help_line(line);
        if (!parsed) continue;
        auto [name, valued] = option_knob(parsed->option);
        auto [it, inserted] = descriptions.try_emplace(name, parsed->state);
        bool keep = inserted || !valued || it->second.starts_with("This option lacks");
        if (keep) it->second = parsed->state;
        scratch.clear();
        last = keep ? &it->second : &scratch;
    }
    for (auto& knob : knobs) {
        auto found = descriptions.find(knob.name);
        if (!knob.help.empty() || found == descriptions.end()) continue;
        if (found->second.empty() || found->second.starts_with("This option lacks")) continue;
        knob.help = found->second;
    }
}

std::map<std::string, std::string> parse_gcc_option_states(std::string_view text) {
    std::map<std::string, std::string> states;
    for (auto line : split_lines(text)) {
        auto parsed = split_help_line(line);
        if (!parsed) continue;
        auto [name, valued] = option_knob(parsed->option);
        states.try_emplace(valued ? name + "=" : name, parsed->state);
    }
    return states;
}

std::vector<std::string> parse_gcc_valid_arguments(std::string_view diagnostics) {
    for (auto line : split_lines(diagnostics)) {
        if (line.find("valid arguments to") == std::string_view::npos) continue;
        auto are = line.find("are: ");
        if (are == std::string_view::npos) continue;
        return split_words(line.substr(are + 5), " \t\r");
    }
    return {};
}

}  // namespace routetune
