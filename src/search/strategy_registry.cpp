// The table of strategies by name; make_strategy looks a name up and builds the strategy,
// expansion_mode_from_string finds the expansion `expand` lists for a name.
#include "search/strategy_registry.hpp"

#include <algorithm>

#include "routetune/error.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

const StrategyEntry kStrategies[] = {
    {"fast", make_fast_strategy, ExpansionMode::Fast},
    {"full", make_full_strategy, ExpansionMode::Full},
    {"mixed", make_mixed_strategy, ExpansionMode::Mixed},
    {"random", make_random_strategy, std::nullopt},
    {"greedy", make_greedy_strategy, std::nullopt},
    {"evolve", make_evolve_strategy, std::nullopt},
    {"model", make_model_strategy, std::nullopt},
    {"auto", make_auto_strategy, std::nullopt},
};

}  // namespace

std::span<const StrategyEntry> strategy_registry() { return kStrategies; }

const StrategyEntry* find_strategy(std::string_view name) {
    for (const StrategyEntry& entry : kStrategies)
        if (entry.name == name) return &entry;
    return nullptr;
}

std::string strategy_list(std::string_view separator, bool expandable_only) {
    std::string list;
    for (const StrategyEntry& entry : kStrategies) {
        if (expandable_only && !entry.expansion) continue;
        list += (list.empty() ? "" : std::string(separator)) + std::string(entry.name);
    }
    return list;
}

std::unique_ptr<Strategy> make_strategy(std::string_view name, const Expression& expression,
                                        const StrategyOptions& options) {
    if (const StrategyEntry* entry = find_strategy(name)) return entry->make(expression, options);
    std::string valid;
    for (const std::string& known : strategy_names()) valid += (valid.empty() ? "" : ", ") + known;
    throw UsageError("unknown search strategy '" + std::string(name) + "' (valid: " + valid + ")");
}

std::vector<std::string> strategy_names() {
    std::vector<std::string> names;
    for (const StrategyEntry& entry : kStrategies) names.emplace_back(entry.name);
    std::sort(names.begin(), names.end());
    return names;
}

ExpansionMode expansion_mode_from_string(std::string_view text) {
    const StrategyEntry* entry = find_strategy(text);
    if (entry && entry->expansion) return *entry->expansion;
    throw UsageError("unknown search mode '" + std::string(text) + "' (valid: " + strategy_list(", ", true) + ")");
}

}  // namespace routetune
