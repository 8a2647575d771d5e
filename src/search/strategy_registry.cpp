// The table of strategies by name; make_strategy looks a name up and builds the strategy.
#include <functional>

#include "routetune/error.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

using Maker = std::unique_ptr<Strategy> (*)(const Expression&, const StrategyOptions&);

struct Entry {
    const char* name;
    Maker make;
};

constexpr Entry kStrategies[] = {
    {"auto", make_auto_strategy},     {"evolve", make_evolve_strategy},
    {"fast", make_fast_strategy},     {"full", make_full_strategy},
    {"greedy", make_greedy_strategy}, {"mixed", make_mixed_strategy},
    {"model", make_model_strategy},   {"random", make_random_strategy},
};

}  // namespace

std::unique_ptr<Strategy> make_strategy(std::string_view name, const Expression& expression,
                                        const StrategyOptions& options) {
    for (const Entry& entry : kStrategies)
        if (name == entry.name) return entry.make(expression, options);
    std::string valid;
    for (const Entry& entry : kStrategies) valid += std::string(valid.empty() ? "" : ", ") + entry.name;
    throw UsageError("unknown search strategy '" + std::string(name) + "' (valid: " + valid + ")");
}

std::vector<std::string> strategy_names() {
    std::vector<std::string> names;
    for (const Entry& entry : kStrategies) names.emplace_back(entry.name);
    return names;
}

}  // namespace routetune
