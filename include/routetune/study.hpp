// A study: one tuning run over one spec. Its summary is what `tune --json`, `report` and the
// final table show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/evaluation.hpp"
#include "routetune/knob.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// How a study ended.
enum class Outcome {
    Improved,         ///< a route beat the default with confidence, confirmed interleaved
    DefaultStays,     ///< no route beat the default with confidence: a normal, correct result
    NoEligibleRoute,  ///< not even the default route was eligible
    Unfinished,       ///< interrupted or still running
};

/// "improved", "default-stays", "no-eligible-route", "unfinished".
std::string_view to_string(Outcome outcome);
/// The inverse of to_string; nullopt for unknown text.
std::optional<Outcome> outcome_from_string(std::string_view text);

/// The interleaved re-measurement of one candidate against the default (A B A B ...).
struct Confirmation {
    Route route;
    TimingSummary default_timing;  ///< the default's samples from the same rounds
    TimingSummary timing;          ///< the candidate's samples
    double speedup = 1;            ///< default median / candidate median
    double ci_low = 1;             ///< 95% interval of the speedup
    double ci_high = 1;
    std::vector<double> build_medians_s;  ///< on several fresh builds: each build's median, in build order
};

/// One warm measurement process of a study (docs/measurement-protocol.md), as it ended.
struct WarmProcessReport {
    std::string lane;                       ///< its CUDA_VISIBLE_DEVICES ("" with one lane)
    long pid = 0;
    std::size_t runs = 0;                   ///< runs it answered, its checks of the default included
    std::size_t routes = 0;                 ///< distinct routes other than the default it ran
    std::optional<double> default_first_s;  ///< the default's time measured in it before any candidate
    std::optional<double> default_last_s;   ///< the default's time measured in it last (absent when it was replaced)
    std::string ended;                      ///< "closed", or why it was replaced
    std::optional<double> request_median_s;  ///< the median wall of the study's runs it answered (request to
                                             ///< reply; its checks of the default not counted); absent when none
    std::optional<double> request_max_s;     ///< ... and the longest of them
};

/// The code one build's runs executed, as the warm measurement process reported it.
struct CodeIdentity {
    Route route;
    std::string artifact_sha256;  ///< the build's artifact
    std::string code_sha256;      ///< the code its runs executed
    std::vector<std::string> paths;  ///< how the process says it ran that code, each way once, first seen first (e.g. "captured"; empty when it does not say)
    std::vector<std::string> why;    ///< why it ran it so, where the process said (a capture refused, a trace stopped), each reason once
};

/// Everything a report shows of a study.
struct StudySummary {
    std::string study;                               ///< the spec's name
    std::string spec_path;
    std::string search;                              ///< mode or strategy
    std::string expression;
    std::map<std::string, std::string> fingerprint;
    std::optional<Evaluation> default_evaluation;    ///< the empty route's evaluation
    std::optional<Confirmation> winner;              ///< set when outcome is Improved
    std::string winner_artifact;                     ///< kept artifact path of the winner
    std::optional<Confirmation> minimal;             ///< the winner's minimal route (tune --minimize), re-confirmed
    Outcome outcome = Outcome::Unfinished;
    std::string message;                             ///< why the outcome is what it is, one line
    std::vector<Evaluation> evaluations;             ///< every evaluation, in finish order
    std::vector<Confirmation> confirmations;         ///< every confirmed candidate
    std::uint64_t candidates_total = 0;              ///< candidates the search planned (0: unknown)
    std::uint64_t artifact_bytes = 0;                ///< bytes of kept artifacts: binary_bytes + output_bytes
    std::uint64_t binary_bytes = 0;                  ///< of those, the builds' {artifact}s (binaries, engines)
    std::uint64_t output_bytes = 0;                  ///< of those, everything else: run outputs, metrics, build leftovers
    double wall_s = 0;                               ///< wall time of the study so far
    std::vector<LeftOutAxisValue> left_out;          ///< values `~` left out for the study's CPU, each with why
    std::map<std::string, std::string> knob_defaults; ///< the expression's knobs with a known default: each one's value at the base flags
    double time_limit_s = 0;                         ///< --time-limit (0: none)
    double confirmation_reserve_s = 0;               ///< what the search kept free for the confirmation (estimate)
    double confirmation_s = 0;                       ///< what the confirmation took
    double confirmation_deadline_s = 0;              ///< seconds into the command by which the confirmation had to end: the limit less closing the warm processes (0: no limit, or no confirmation ran)
    std::vector<double> default_build_medians_s;     ///< the confirmation's fresh builds of the default: each one's median
    std::vector<WarmProcessReport> warm_processes;   ///< the warm measurement processes of the last tune
    std::vector<CodeIdentity> code_identities;       ///< per build measured warm: the code its runs executed
};

}  // namespace routetune
