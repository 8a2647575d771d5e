// The decision rule of one removal in a minimization: is the route without some changes
// slower than the route with them, with confidence? Shared by tune --minimize (real builds)
// and bench/strategy_bench (modelled samples) so that both judge alike.
#pragma once

#include <functional>
#include <vector>

namespace routetune {

/// Interleaved rounds of the judge per look.
inline constexpr int kJudgeRounds = 5;
/// Looks at most: kJudgeLooks x kJudgeRounds rounds.
inline constexpr int kJudgeLooks = 4;

/// Appends `rounds` more interleaved rounds of samples (seconds) of the reference and of the
/// candidate to the two vectors; false when a run failed.
using DrawRounds = std::function<bool(int rounds, std::vector<double>& reference, std::vector<double>& candidate)>;

/// True when the candidate is slower than the reference with confidence (the bootstrap 95%
/// interval of median(reference) / median(candidate) lies below 1) at one of the looks, each
/// after kJudgeRounds more rounds; a next look only while the medians say slower without
/// confidence, at most kJudgeLooks. True as well when a run fails.
bool slower_with_confidence(const DrawRounds& draw);

}  // namespace routetune
