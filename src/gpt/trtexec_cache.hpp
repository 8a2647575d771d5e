// The tuning cache of TensorRT's Global Performance Tuner (`trtexec --tuningCacheFile`):
// JSON lines, a header line then one line per iteration. Import turns it into routetune
// Evaluations (so `report` can show a GPT sweep); export writes routetune Evaluations back
// in that format (so a routetune study can be read by GPT's tools).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/evaluation.hpp"

namespace routetune {

/// accuracy_parameter of the header.
struct TrtexecAccuracyParameter {
    double atol = 1e-5;
    double rtol = 1e-5;
    double epsilon = 0;   ///< the accuracy threshold (--accuracyThreshold); 0: none given
};

/// The first line: how the sweep was run.
struct TrtexecCacheHeader {
    std::string tuner_version;
    std::string accuracy_algorithm = "l0";   ///< l0 | l1 | l2 | lInf | cos
    TrtexecAccuracyParameter accuracy_parameter;
    std::string searching_algorithm = "fast";
    std::string command_line;
    std::string default_build_route;         ///< every knob at its default
    std::string tuning_expr;
    std::string files_json = "{}";           ///< the "files" object, kept as JSON text
    std::vector<std::string> argv;
};

/// One iteration line.
struct TrtexecCacheIteration {
    std::uint64_t iter = 0;
    std::string build_route;
    bool crash = false;
    std::string error_message;
    std::optional<std::map<std::string, double>> accuracy_loss;  ///< per output tensor; null in the file
    std::optional<double> gpu_time_ms;                           ///< null in the file
};

/// A whole cache file.
struct TrtexecCache {
    TrtexecCacheHeader header;
    std::vector<TrtexecCacheIteration> iterations;
};

/// Parses cache text (blank lines skipped); throws UsageError naming source, the line number
/// and the field when a line is not the expected JSON.
TrtexecCache parse_trtexec_cache(std::string_view text, const std::string& source = "<tuning cache>");

/// The cache as JSON lines in trtexec's field order, one object per line, ending in '\n'.
std::string write_trtexec_cache(const TrtexecCache& cache);

/// One Evaluation per iteration, in file order. crash → build_crashed (the cache does not say
/// whether the build or the timing run died); a non-empty error_message → build_failed; a
/// loss over accuracy_parameter.epsilon (when epsilon > 0) → inaccurate; no gpu_time
/// otherwise → run_failed; else ok. Each output tensor's loss becomes a CaseResult named
/// after the tensor; gpu_time (ms) becomes one timing sample (s). The first iteration of a
/// fast or mixed sweep is phase "default" (GPT's baseline), the others take the
/// searching_algorithm as phase. Throws UsageError on an unparsable build_route.
std::vector<Evaluation> trtexec_cache_to_evaluations(const TrtexecCache& cache);

/// A cache of evaluations under header, iterations numbered from 0. Crashed and timed-out
/// evaluations are crash=true; failed ones carry their message as error_message; case losses
/// become accuracy_loss; the median time (ms) becomes gpu_time for ok and inaccurate ones.
TrtexecCache evaluations_to_trtexec_cache(const std::vector<Evaluation>& evaluations, TrtexecCacheHeader header);

/// GPT's name of a routetune accuracy metric ("linf" → "lInf"; l0, l1, l2, cos unchanged);
/// nullopt for metrics GPT lacks (exact, rel_l2).
std::optional<std::string> trtexec_accuracy_algorithm(std::string_view metric);

}  // namespace routetune
