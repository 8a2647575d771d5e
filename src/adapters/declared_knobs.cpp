// User-declared knobs: validation, merging into a discovered catalog, and application.
// A declared knob carries its own KnobApplication; apply_declared_knobs walks the route in
// knob-name order (the route's own order), so the argv items it appends are deterministic.
#include "adapters/declared_knobs.hpp"

#include <cctype>
#include <set>

#include "routetune/error.hpp"

namespace routetune {

namespace {

bool is_env_name(std::string_view name) {
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
    for (char c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    }
    return true;
}

}  // namespace

bool is_declared_knob(const Knob& knob) {
    return !knob.application.argv_template.empty() || !knob.application.env_name.empty();
}

void validate_declared_knob(const Knob& knob) {
    const std::string where = "declared knob '" + knob.name + "'";
    if (!is_valid_knob_name(knob.name)) {
        throw UsageError(where + ": invalid name (a knob name starts with '-' and contains no '=', "
                         "whitespace, '[', ']' or '|', e.g. \"-tile\")");
    }
    if (!is_declared_knob(knob)) {
        throw UsageError(where + ": says neither how it is applied: give argv (e.g. \"-DTILE={value}\") "
                         "or env (e.g. \"TILE\")");
    }
    const auto& argv = knob.application.argv_template;
    if (!argv.empty() && argv.find("{value}") == std::string::npos) {
        throw UsageError(where + ": argv template '" + argv + "' lacks the {value} placeholder");
    }
    const auto& env = knob.application.env_name;
    if (!env.empty() && !is_env_name(env)) {
        throw UsageError(where + ": env '" + env + "' is not an environment variable name "
                         "(letters, digits and '_', not starting with a digit)");
    }
    if (knob.type != KnobType::Int && knob.values.empty() && knob.bounded) {
        throw UsageError(where + ": a " + std::string(to_string(knob.type)) + " knob needs values");
    }
    if (knob.type == KnobType::Int && knob.bounded && knob.min > knob.max) {
        throw UsageError(where + ": range " + std::to_string(knob.min) + ".." + std::to_string(knob.max) +
                         " is empty");
    }
    if (!knob.default_value.empty() && !knob.allows(knob.default_value)) {
        throw UsageError(where + ": default '" + knob.default_value + "' is not allowed (allowed: " +
                         knob.allowed_text() + ")");
    }
}

void add_declared_knobs(Catalog& catalog, const std::vector<Knob>& declared) {
    std::set<std::string> seen;
    for (const auto& knob : declared) {
        validate_declared_knob(knob);
        if (!seen.insert(knob.name).second) {
            throw UsageError("declared knob '" + knob.name + "' is declared twice");
        }
        Knob copy = knob;
        if (!copy.has_tag("declared")) copy.tags.push_back("declared");
        catalog.add(std::move(copy));
    }
}

std::string substitute_value(std::string_view argv_template, std::string_view value) {
    static constexpr std::string_view placeholder = "{value}";
    std::string out;
    std::size_t pos = 0;
    while (true) {
        std::size_t hit = argv_template.find(placeholder, pos);
        if (hit == std::string_view::npos) break;
        out.append(argv_template.substr(pos, hit - pos));
        out.append(value);
        pos = hit + placeholder.size();
    }
    out.append(argv_template.substr(pos));
    return out;
}

void apply_declared_knobs(const Route& route, const Catalog& catalog, AppliedRoute& applied) {
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        if (knob == nullptr || !is_declared_knob(*knob)) continue;
        if (!knob->application.argv_template.empty()) {
            applied.flags.push_back(substitute_value(knob->application.argv_template, value));
        }
        if (!knob->application.env_name.empty()) applied.environment[knob->application.env_name] = value;
    }
}

}  // namespace routetune
