// The strategy registry: one table with a row per search strategy (its name as specs and
// --search write it, its factory, the expansion it replays when it has a fixed list of
// candidates). make_strategy, strategy_names, spec validation, the
// help of `tune` and `expand`, and `expand`'s choice of expansion all read this table, so
// adding a strategy is its own file plus one row in strategy_registry.cpp (and its factory's
// declaration in strategies.hpp).
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "routetune/strategy.hpp"

namespace routetune {

/// One strategy as the registry knows it.
struct StrategyEntry {
    std::string_view name;                                                      ///< "fast", "auto", ...
    std::unique_ptr<Strategy> (*make)(const Expression&, const StrategyOptions&);  ///< builds one
    std::optional<ExpansionMode> expansion;  ///< the expansion `expand` lists for it; nullopt: adaptive
};

/// Every strategy, in the order specs and messages list them (simplest first).
std::span<const StrategyEntry> strategy_registry();

/// The row named name, or nullptr.
const StrategyEntry* find_strategy(std::string_view name);

/// The names in registry order joined by separator; only those with an expansion when
/// expandable_only ("fast | full | mixed").
std::string strategy_list(std::string_view separator, bool expandable_only = false);

}  // namespace routetune
