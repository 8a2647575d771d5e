// Quoting per format. shell: each value one single-quoted word (util/shell_quote), the flags as
// one word holding their shell words, so `eval "set -- $ROUTETUNE_FLAGS"` gets the argv back.
// make: values after := with $ doubled and # escaped; recipes pass ROUTETUNE_FLAGS through the
// shell, so it holds shell words too. cmake: quoted arguments with \, " and $ escaped, one list
// item per flag. env: values verbatim after '=' (the form environment files take). json: strings
// by nlohmann.
#include "govern/build_route_format.hpp"

#include <nlohmann/json.hpp>

#include <cctype>

#include "routetune/error.hpp"
#include "util/shell_quote.hpp"
#include "util/output_schema.hpp"

namespace routetune {

namespace {

void refuse(const std::string& format, const std::string& what, const std::string& why) {
    throw UsageError("flags --format " + format + ": " + what + " " + why +
                     "; --format json holds any value");
}

void check_name(const std::string& format, const std::string& name) {
    bool valid = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (unsigned char c : name) valid = valid && (std::isalnum(c) || c == '_');
    if (!valid) refuse(format, "the environment name '" + name + "'", "is not a variable name ([A-Za-z_][A-Za-z0-9_]*)");
}

void check_line(const std::string& format, const std::string& what, const std::string& value) {
    if (value.find_first_of("\r\n") != std::string::npos) refuse(format, what, "holds a line break");
}

std::string make_value(const std::string& value) {
    if (!value.empty() && value.back() == '\\') refuse("make", "the value '" + value + "'", "ends with a backslash (a line continuation)");
    std::string out;
    for (char c : value) {
        if (c == '$') out += "$$";
        else if (c == '#') out += "\\#";
        else out += c;
    }
    return out;
}

std::string cmake_quoted(const std::string& format, const std::string& what, const std::string& value) {
    check_line(format, what, value);
    if (value.find(';') != std::string::npos) refuse(format, what, "holds a ';' (CMake's list separator)");
    std::string out = "\"";
    for (char c : value) {
        if (c == '\\' || c == '"' || c == '$') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string shell_text(const BuildRoute& r) {
    std::string text = "ROUTETUNE_ROUTE=" + shell_quote(r.route) + "\nROUTETUNE_SOURCE=" + shell_quote(r.source) +
                       "\nROUTETUNE_FLAGS=" + shell_quote(shell_words(r.flags)) + "\n";
    for (const auto& [name, value] : r.environment) text += "export " + name + "=" + shell_quote(value) + "\n";
    return text;
}

std::string make_text(const BuildRoute& r) {
    const std::string format = "make";
    std::string flags = shell_words(r.flags);
    check_line(format, "the flags", flags);
    check_line(format, "the route", r.route);
    std::string text = "ROUTETUNE_ROUTE := " + make_value(r.route) + "\nROUTETUNE_SOURCE := " + r.source +
                       "\nROUTETUNE_FLAGS := " + make_value(flags) + "\n";
    for (const auto& [name, value] : r.environment) {
        check_line(format, "the value of " + name, value);
        text += "export " + name + " := " + make_value(value) + "\n";
    }
    return text;
}

std::string cmake_text(const BuildRoute& r) {
    const std::string format = "cmake";
    std::string text = "set(ROUTETUNE_ROUTE " + cmake_quoted(format, "the route", r.route) + ")\n";
    text += "set(ROUTETUNE_SOURCE \"" + r.source + "\")\n";
    text += "set(ROUTETUNE_SPEC " + cmake_quoted(format, "the spec path", r.spec) + ")\n";
    text += "set(ROUTETUNE_FLAGS";
    for (const auto& flag : r.flags) text += " " + cmake_quoted(format, "the flag '" + flag + "'", flag);
    text += ")\nset(ROUTETUNE_ENVIRONMENT";
    for (const auto& [name, value] : r.environment)
        text += " " + cmake_quoted(format, "the value of " + name, name + "=" + value);
    return text + ")\n";
}

std::string env_text(const BuildRoute& r) {
    const std::string format = "env";
    std::string flags = shell_words(r.flags);
    check_line(format, "the flags", flags);
    check_line(format, "the route", r.route);
    std::string text = "ROUTETUNE_ROUTE=" + r.route + "\nROUTETUNE_SOURCE=" + r.source + "\nROUTETUNE_FLAGS=" + flags + "\n";
    for (const auto& [name, value] : r.environment) {
        check_line(format, "the value of " + name, value);
        text += name + "=" + value + "\n";
    }
    return text;
}

std::string json_text(const BuildRoute& r) {
    nlohmann::json out{{"route", r.route},   {"flags", r.flags}, {"environment", r.environment},
                       {"source", r.source}, {"lock", r.lock},   {"spec", r.spec}};
    if (!r.refusal.empty()) out["refusal"] = r.refusal;
    return versioned_json_text(out);
}

}  // namespace

const std::vector<std::string>& build_route_format_names() {
    static const std::vector<std::string> names{"shell", "make", "cmake", "env", "json"};
    return names;
}

std::string format_build_route(const BuildRoute& route, const std::string& format) {
    if (format != "json")
        for (const auto& [name, value] : route.environment) check_name(format, name);
    if (format == "shell") return shell_text(route);
    if (format == "make") return make_text(route);
    if (format == "cmake") return cmake_text(route);
    if (format == "env") return env_text(route);
    if (format == "json") return json_text(route);
    throw UsageError("flags --format '" + format + "': valid formats are shell, make, cmake, env, json");
}

}  // namespace routetune
