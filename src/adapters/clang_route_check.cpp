// The cc1 line holds every decision of the driver: `-Ofast -fno-fast-math` and `-fno-fast-math
// -Ofast` give different lines, so asserting a knob once more at the end shows whether a later
// flag had overridden it. -mllvm options pass through the driver untouched, so their values
// are read from the line. ISA extensions imply one another in the backend, not in the driver
// (`-mno-avx -mavx512f` forwards both), so their outcome is read from the feature macros
// (`-mavx` -> `__AVX__`, clang_feature_macro), as discovery read their defaults.
#include "adapters/clang_route_check.hpp"

#include <filesystem>

#include "adapters/clang_catalog_parser.hpp"
#include "adapters/clang_defaults.hpp"
#include "adapters/clang_driver.hpp"
#include "adapters/clang_llvm_flags.hpp"
#include "adapters/gcc_flags.hpp"

namespace routetune {

namespace {

const std::string macro_prefix = "macro:";
const std::string macros_read = "macros";

bool macro_switch(const Knob& knob) {
    return knob.type == KnobType::Bool && knob.name.starts_with("-m") && !knob.name.starts_with(kMllvmKnobPrefix) &&
           !knob.default_value.empty();
}

CompilerAccount cc1_account(const std::string& line) {
    CompilerAccount account;
    auto arguments = parse_cc1_arguments(line);
    for (std::size_t i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == "-mllvm" && i + 1 < arguments.size()) {
            std::string option = arguments[++i];
            option.erase(0, option.find_first_not_of('-'));
            auto eq = option.find('=');
            account.states[std::string(kMllvmKnobPrefix) + option.substr(0, eq)] = eq == std::string::npos ? "true" : option.substr(eq + 1);
            continue;
        }
        account.rest += arguments[i] + "\n";
    }
    return account;
}

}  // namespace

std::optional<std::string> clang_reported_value(const Knob& knob, const std::string&, const CompilerAccount& account) {
    if (knob.name.starts_with(kMllvmKnobPrefix)) {
        auto found = account.states.find(knob.name);
        if (found == account.states.end()) return std::nullopt;
        if (knob.type != KnobType::Bool) return found->second;
        if (found->second == "true" || found->second == "1") return "on";
        if (found->second == "false" || found->second == "0") return "off";
        return std::nullopt;
    }
    if (!macro_switch(knob) || !account.states.count(macros_read)) return std::nullopt;
    return account.states.count(macro_prefix + clang_feature_macro(knob.name)) ? "on" : "off";
}

bool clang_route_needs_macros(const Route& route, const Catalog& catalog) {
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        if (knob && macro_switch(*knob)) return true;
    }
    return false;
}

AccountSource clang_account_source(const CompilerIdentity& identity, bool macros) {
    AccountSource source;
    source.compiler = "clang";
    source.account = [identity, macros](const std::vector<std::string>& flags) -> std::optional<CompilerAccount> {
        auto folder = std::filesystem::temp_directory_path();
        auto line = clang_cc1_line(identity, flags, folder);
        if (!line) return std::nullopt;
        CompilerAccount account = cc1_account(*line);
        if (!macros) return account;
        auto defined = clang_macros(identity, flags, folder);
        if (!defined) return std::nullopt;
        account.states[macros_read] = "";
        for (const auto& name : *defined) account.states[macro_prefix + name] = "";
        return account;
    };
    source.reported = clang_reported_value;
    source.flags_of = [](const Knob& knob, const std::string& value) {
        if (knob.name.starts_with(kMllvmKnobPrefix)) return llvm_option_flags(knob, value);
        return std::vector<std::string>{gcc_flag_for(knob, value)};
    };
    return source;
}

}  // namespace routetune
