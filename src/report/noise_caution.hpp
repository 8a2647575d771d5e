// Whether a study's machine was too noisy to tell a gain of min_gain: the spread two runs of
// one binary showed (the default's paired A/A interval, or its own interval when unpaired),
// against min_gain, said once per study.
#pragma once

#include <optional>
#include <string>

#include "routetune/evaluation.hpp"
#include "routetune/spec.hpp"

namespace routetune {

/// The caution for a default whose spread is wider than timing.min_gain: the measured spread,
/// and what would narrow it (never reported timing to a spec that uses it); nullopt when the
/// default is not Ok or its spread is within min_gain.
std::optional<std::string> noise_caution(const Evaluation& default_evaluation, const TimingSpec& timing);

}  // namespace routetune
