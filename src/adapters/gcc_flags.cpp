// Knob names map to GCC flags by prefix: `-O` takes its value glued on, `-param:NAME` becomes
// `--param=NAME=V`, and `-f`/`-m` knobs take `on`/`off` as the positive/negative form (the
// negative inserts or removes `no-` after the one-letter prefix) and any other value as
// `=V`. A route overrides the base flags by dropping each base flag that sets one of its
// knobs, in any spelling, and appending its own, umbrella flags first (flag_order.hpp), so
// that the route's own value of every knob an umbrella touches comes later and wins; values
// only ever become argv items.
#include "adapters/gcc_flags.hpp"

#include "adapters/flag_order.hpp"
#include "routetune/error.hpp"

namespace routetune {

namespace {

const std::string param_prefix = "-param:";

// "-fno-x" for "-fx", "-fx" for "-fno-x" (likewise -m).
std::string negated(const std::string& name) {
    std::string lead = name.substr(0, 2);
    if (name.compare(2, 3, "no-") == 0) return lead + name.substr(5);
    return lead + "no-" + name.substr(2);
}

bool is_opt_level(const std::string& flag) {
    if (!flag.starts_with("-O")) return false;
    std::string level = flag.substr(2);
    return level.empty() || level == "s" || level == "fast" || level == "g" || level == "z" ||
           level.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::string gcc_flag_for(const Knob& knob, const std::string& value) {
    if (!knob.application.argv_template.empty()) {
        std::string flag = knob.application.argv_template;
        for (auto at = flag.find("{value}"); at != std::string::npos; at = flag.find("{value}", at + value.size())) {
            flag.replace(at, 7, value);
        }
        return flag;
    }
    if (knob.name == "-O") return "-O" + value;
    if (knob.name.starts_with(param_prefix)) return "--param=" + knob.name.substr(param_prefix.size()) + "=" + value;
    bool switchable = knob.type == KnobType::Bool ||
                      (knob.type == KnobType::Enum && !knob.bounded && (value == "on" || value == "off"));
    if (switchable && value == "on") return knob.name;
    if (switchable && value == "off") return negated(knob.name);
    return knob.name + "=" + value;
}

bool gcc_flag_sets(const std::string& flag, const std::string& knob_name) {
    if (knob_name == "-O") return is_opt_level(flag);
    if (knob_name.starts_with(param_prefix)) {
        return flag.starts_with("--param=" + knob_name.substr(param_prefix.size()) + "=");
    }
    if (knob_name.size() < 3) return false;
    for (const std::string& form : {knob_name, negated(knob_name)}) {
        if (flag == form || flag.starts_with(form + "=")) return true;
    }
    return false;
}

std::vector<std::string> apply_gcc_route(const std::vector<std::string>& base_flags, const Route& route,
                                         const Catalog& catalog) {
    std::vector<std::string> flags;
    for (std::size_t i = 0; i < base_flags.size(); ++i) {
        const std::string& flag = base_flags[i];
        bool two_item_param = flag == "--param" && i + 1 < base_flags.size();
        bool overridden = false;
        for (const auto& [name, value] : route.assignments()) {
            bool sets = two_item_param ? gcc_flag_sets("--param=" + base_flags[i + 1], name) : gcc_flag_sets(flag, name);
            if (sets) {
                overridden = true;
                break;
            }
        }
        if (overridden) {
            if (two_item_param) ++i;
            continue;
        }
        flags.push_back(flag);
        if (two_item_param) flags.push_back(base_flags[++i]);
    }
    for (const auto& [name, value] : umbrella_first(route)) {
        const Knob* knob = catalog.find(name);
        if (!knob) throw UsageError("route names unknown knob '" + name + "'");
        if (!knob->application.env_name.empty() && knob->application.argv_template.empty()) continue;
        flags.push_back(gcc_flag_for(*knob, value));
    }
    return flags;
}

}  // namespace routetune
