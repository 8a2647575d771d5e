#include "cli/option_types.hpp"

#include <map>
#include <string>

namespace routetune::cli {

namespace {

// Option long names (and positional names) -> what their value is.
const std::map<std::string, std::string>& option_types() {
    static const std::map<std::string, std::string> types{
        {"spec", "SPEC"},
        {"store", "STORE"},
        {"cache", "STORE"},
        {"lock", "LOCK"},
        {"target", "LOCK|SPEC"},
        {"ARTIFACT", "ARTIFACT"},
        {"tuning_cache", "FILE"},
        {"adapter", "NAME"},
        {"compiler", "PATH"},
        {"base", "FLAGS"},
        {"filter", "GLOB"},
        {"routes", "EXPR"},
        {"routes-file", "FILE"},
        {"search", "MODE"},
        {"limit", "N"},
        {"mixed-max-knobs", "N"},
        {"output", "PATH"},
        {"study", "NAME"},
        {"jobs", "N"},
        {"lease", "DURATION"},
        {"queue-depth", "N"},
        {"measure-lanes", "N"},
        {"time-limit", "DURATION"},
        {"max-routes", "N"},
        {"seed", "N"},
        {"seeds", "N"},
        {"budget", "N"},
        {"audit", "FILE"},
        {"route", "ROUTE"},
        {"format", "FORMAT"},
        {"host", "HOST"},
        {"allow-host", "HOST"},
        {"worker-id", "NAME"},
        {"owner", "NAME"},
        {"reason", "REASON"},
        {"review-after", "DURATION"},
        {"keep", "LIST"},
        {"older-than", "DURATION"},
        {"threshold", "X"},
        {"sign", "KEY"},
        {"allowed-signers", "FILE"},
    };
    return types;
}

// CLI11's own name of the value type, before any validator's description ("TEXT:{a,b}").
bool is_bare_type(const std::string& type) {
    std::string base = type.substr(0, type.find(':'));
    return base == "TEXT" || base == "INT" || base == "FLOAT";
}

}  // namespace

void name_option_types(CLI::App& app) {
    for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
        for (CLI::Option* option : command->get_options()) {
            if (!is_bare_type(option->get_type_name())) continue;
            std::string key = option->get_lnames().empty() ? option->get_name() : option->get_lnames().front();
            auto found = option_types().find(key);
            if (found != option_types().end()) option->type_name(found->second);
        }
    }
}

}  // namespace routetune::cli
