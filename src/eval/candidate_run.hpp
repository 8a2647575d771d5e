// The values one candidate's evaluation passes between its steps: the candidate as built, what
// its runs are checked, bounded and paired against, what the default's measurement leaves for
// the runs after it, and one run of one case. The Evaluator makes them; the per-case gate
// (eval/case_judgement.hpp) and the default's re-measurement (eval/default_checker.hpp) read them.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "routetune/evaluation.hpp"

namespace routetune {

/// A candidate after its build: ready to measure (status Pending) or already failed.
struct BuiltCandidate {
    Evaluation evaluation;                           ///< route, phase, build fields and status
    std::filesystem::path workdir;                   ///< its scratch folder (holds the artifact)
    std::filesystem::path artifact;                  ///< the {artifact} path
    std::map<std::string, std::string> environment;  ///< the route's environment for the runs
    std::map<std::string, std::string> placement;    ///< where its runs go (a measurement lane's
                                                     ///< CUDA_VISIBLE_DEVICES): set over environment, for
                                                     ///< its runs and the default's runs paired with them
};

/// What runs are checked, bounded and paired against: the reference output of each case, the
/// default route's time per case, and the default's build that candidates' runs alternate with.
struct RunBaseline {
    std::map<std::string, std::string> reference_outputs;  ///< case name -> output bytes
    std::map<std::string, double> default_case_s;          ///< case name -> default's median wall time (s)
    std::map<std::string, double> default_case_first_s;    ///< case name -> wall time of the default build's first
                                                           ///< run (a warm process loading it); absent: as above
    std::optional<BuiltCandidate> paired_default;          ///< the default's build, run next to every round of
                                                           ///< a measured candidate; nullopt: candidates timed alone
    bool paired_self = false;                              ///< without paired_default: pair a measured build with
                                                           ///< itself (the default's own A/A measurement)
};

/// What the default route's measurement leaves for the runs after it.
struct DefaultRecord {
    std::map<std::string, std::string> outputs;  ///< case name -> first output
    std::map<std::string, double> wall_s;        ///< case name -> median process wall time
    std::map<std::string, double> first_wall_s;  ///< case name -> wall time of the build's first run (not counting a
                                                 ///< warm process's first request, which pays the process's own costs)
};

/// One run of one case.
struct CaseRun {
    Status status = Status::Ok;   ///< ok, run_failed, run_crashed or run_timeout
    double time_s = 0;            ///< process wall time, or the median of the reported times
    double wall_s = 0;            ///< process wall time
    bool process_first = false;   ///< a warm process's first request (see LaunchResult::process_first)
    double setup_s = 0;           ///< of wall_s, what a later run of the build does not pay (LaunchResult::setup_s)
    std::vector<double> samples;  ///< the run's timing samples: {time_s}, or every reported value
                                  ///< when [timing] reported_list = "samples"
    std::string output;           ///< the case's output bytes
    std::string message;          ///< why it failed
    int exit_code = 0;
    int signal = 0;
    std::string stderr_tail;
    std::string code_sha256;      ///< the code a warm measurement process says it ran ("" otherwise)
};

}  // namespace routetune
