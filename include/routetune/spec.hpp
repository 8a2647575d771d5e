// The study spec (TOML): what to build, how to run and check it, how to time it, what to
// search. Loading validates every key; errors name the file, line, key and valid values.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// [compiler]
struct CompilerSpec {
    std::string adapter = "gcc";
    std::string path;                     ///< default: the adapter's usual executable
    std::vector<std::string> base;        ///< flags of the default route
    bool host_isa_only = true;            ///< `~` leaves out ISA values this machine's CPU cannot run
};

/// [build]
struct BuildSpec {
    std::vector<std::string> command;     ///< argv with placeholders
    double timeout_s = 300;
    double relative_timeout = 10;         ///< × the default route's build time; 0 disables
    double relative_timeout_floor_s = 10; ///< the relative limit is never below this (builds are noisy)
    std::uint64_t memory_limit_mb = 0;    ///< 0: no limit
    std::uint64_t max_output_mb = 256;    ///< a build printing more on stdout or stderr fails
    std::string cwd;                      ///< "" = the spec's folder; "{workdir}" or a folder
    std::map<std::string, std::string> env;
    std::vector<std::string> inputs;      ///< globs of the files the build reads (relative to the spec's folder), hashed into a lock
    int nice = 10;                        ///< added to each build's niceness, so builds running beside a
                                          ///< measurement yield the CPU to it; 0: builds at the tuner's priority
};

/// [run]
struct RunSpec {
    std::vector<std::string> command;     ///< argv with placeholders; no {output}: stdout is the output
    double timeout_s = 60;
    double relative_timeout = 10;         ///< × the default route's run time; 0 disables
    double relative_timeout_floor_s = 1;  ///< the relative limit is never below this
    std::uint64_t memory_limit_mb = 0;
    std::uint64_t max_output_mb = 256;    ///< a run printing (or writing to {output}) more fails
    std::string cwd;
    std::map<std::string, std::string> env;
    std::vector<std::string> server;      ///< a warm measurement process per lane (docs/measurement-protocol.md):
                                          ///< its argv ({compiler}, {spec_dir}); empty: a fresh process per run
};

/// [timing]
struct TimingSpec {
    std::string source = "process";       ///< a name of routetune/timing.hpp: "process" | "reported" | "cpu"
    int warmup = 1;
    int repeats = 7;
    double min_gain = 0.02;               ///< a winner must be this much faster, with confidence
    std::string reported_list = "median"; ///< a reported list: "median" = one sample per run,
                                          ///< "samples" = each value a sample (the program's own repeats)
    int confirm_rounds = 10;              ///< interleaved A B A B rounds in the confirmation
    int confirm_top = 3;                  ///< candidates re-measured in the confirmation
    bool confirm_rebuild = false;         ///< the confirmation builds the default and finalists afresh
    int confirm_builds = 1;               ///< with confirm_rebuild: fresh builds per route (the adapter's
                                          ///< default: 3 where builds vary, else 1)
    bool paired = true;                   ///< each candidate's rounds alternate with the default's runs
                                          ///< (calibrated intervals, about twice the runs); false: timed
                                          ///< alone, figures labelled uncalibrated
};

/// [accuracy.<class>]: one case class's own rule; an unset field keeps [accuracy]'s value.
struct AccuracyClassSpec {
    std::optional<double> threshold;
    std::optional<double> atol;
    std::optional<double> rtol;
};

/// [accuracy]
struct AccuracySpec {
    std::string format = "text";          ///< text | f32 | f64 | i32 | npy | trtexec-json
    std::string metric = "rel_l2";        ///< exact | l0 | l1 | l2 | linf | rel_l2 | cos
    double threshold = 1e-6;
    double atol = 0;                      ///< for l0
    double rtol = 0;                      ///< for l0
    std::map<std::string, AccuracyClassSpec> classes;  ///< case class -> its own rule
};

/// The case classes, in the order reports list them: "normal", "boundary", "misuse",
/// "component-failure".
const std::vector<std::string>& case_class_names();

/// The class whose cases state their expected outcome (a dependency of the program is absent).
inline constexpr const char* kComponentFailureClass = "component-failure";

/// [[case]]
struct CaseSpec {
    std::string name;
    std::filesystem::path input;          ///< absolute; empty when none ({input} unavailable)
    std::filesystem::path reference;      ///< absolute golden output; empty: the default's output
    std::vector<std::string> args;        ///< extra argv items appended to the run command
    std::string case_class = "normal";    ///< one of case_class_names(): reported apart, gated alike
    bool promotion_only = false;          ///< not run while tuning; run by promote, verify --rerun, review
    std::string expect = "ok";            ///< the run's expected status: "ok", or "run_failed" (component-failure cases)
    std::optional<int> expect_exit;       ///< with expect = "run_failed": the exit code it must end with
};

/// [search]
struct SearchSpec {
    std::string routes;                   ///< route expression text
    std::string routes_file;              ///< absolute path, alternative to routes
    std::string mode = "fast";
    std::uint64_t max_routes = 1000;
    double time_limit_s = 0;              ///< 0: none
    int mixed_max_knobs = 4;
    bool include_unsafe = false;
    std::uint64_t seed = 1;
};

/// A whole spec, with paths resolved against the spec's folder.
struct Spec {
    std::filesystem::path file;           ///< absolute path of the spec
    std::filesystem::path dir;            ///< its folder: commands run here by default
    std::string name;
    CompilerSpec compiler;
    BuildSpec build;
    RunSpec run;
    TimingSpec timing;
    AccuracySpec accuracy;
    std::vector<CaseSpec> cases;          ///< never empty: no [[case]] means one case "default"
    SearchSpec search;
    std::vector<Knob> knobs;              ///< user-declared [[knob]] tables
    std::string sha256;                   ///< hash of the spec file's bytes
};

/// Loads and validates the spec at file; throws UsageError naming the file, line, key and
/// what would be valid. Beyond types and ranges: commands use only the known placeholders,
/// {input} needs an input in every case, source = "reported" needs {metrics} in the run
/// command, its env or every case's args, and input/reference/routes_file paths must exist.
Spec load_spec(const std::filesystem::path& file);

/// Parses spec text as if it were the file at file (for tests); same errors as load_spec.
Spec parse_spec(const std::string& text, const std::filesystem::path& file);

}  // namespace routetune
