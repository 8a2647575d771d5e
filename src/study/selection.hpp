// Choosing the winner: which eligible routes go to the interleaved confirmation, and which
// confirmed route, if any, beats the default with confidence.
#pragma once

#include <optional>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/study.hpp"

namespace routetune {

/// Ok evaluations (the default and same_as ones excluded) whose search-phase speedup
/// (speedup_against_default) is at least 1 + min_gain, highest first, at most top of them.
std::vector<Evaluation> confirmation_candidates(const std::vector<Evaluation>& evaluations,
                                                const Evaluation& default_evaluation, double min_gain, int top);

/// The Ok evaluations the confirmation will take, in one rule for the confirmation, its cost
/// estimate and the artifact keeper (so that no artifact it needs is dropped): with an Ok
/// default, confirmation_candidates (ties in median go to the earlier evaluation); with a
/// default that failed, the fastest eligible route alone (fastest_eligible); with no default
/// yet, every Ok route that measured itself (nothing can be ruled out; same_as ones excluded).
std::vector<Evaluation> routes_to_confirm(const std::vector<Evaluation>& evaluations,
                                          const std::optional<Evaluation>& default_evaluation, double min_gain, int top);

/// A confirmation from interleaved samples: speedup = median(default) / median(candidate) with
/// its bootstrap 95% interval.
Confirmation make_confirmation(const Route& route, const std::vector<double>& default_samples,
                               const std::vector<double>& candidate_samples);

/// The confirmed route with the highest speedup among those whose interval's lower end is at
/// least 1 + min_gain; nullopt when none is (the default stays).
std::optional<Confirmation> pick_winner(const std::vector<Confirmation>& confirmations, double min_gain);

/// The fastest Ok evaluation by median (the default included, same_as ones excluded: their twin
/// stands for them; a tie goes to the earlier); nullopt when none is.
std::optional<Evaluation> fastest_eligible(const std::vector<Evaluation>& evaluations);

}  // namespace routetune
