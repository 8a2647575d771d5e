// Constructors of the strategies make_strategy knows, one per file of src/search/.
#pragma once

#include <memory>

#include "routetune/strategy.hpp"

namespace routetune {

/// Replays expand(fast), skipping routes already in history.
std::unique_ptr<Strategy> make_fast_strategy(const Expression& expression, const StrategyOptions& options);
/// Replays expand(full), skipping routes already in history.
std::unique_ptr<Strategy> make_full_strategy(const Expression& expression, const StrategyOptions& options);
/// Fast, then the product of the knob values that beat the baseline (GPT's mixed).
std::unique_ptr<Strategy> make_mixed_strategy(const Expression& expression, const StrategyOptions& options);
/// Uniform samples of the product, without repeats.
std::unique_ptr<Strategy> make_random_strategy(const Expression& expression, const StrategyOptions& options);
/// Iterated one-knob-at-a-time descent from the baseline.
std::unique_ptr<Strategy> make_greedy_strategy(const Expression& expression, const StrategyOptions& options);
/// A generational evolutionary search.
std::unique_ptr<Strategy> make_evolve_strategy(const Expression& expression, const StrategyOptions& options);
/// A tree-structured Parzen estimator with a feasibility model.
std::unique_ptr<Strategy> make_model_strategy(const Expression& expression, const StrategyOptions& options);
/// Group screening, then Thompson sampling of an additive model (the default for large spaces).
std::unique_ptr<Strategy> make_auto_strategy(const Expression& expression, const StrategyOptions& options);

}  // namespace routetune
