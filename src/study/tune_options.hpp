// Options of one `tune` run: the spec's [search] section overridden by the command line.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace routetune {

/// What the command line says about a study (empty/unset: the spec decides).
struct TuneOptions {
    std::string routes;                       ///< --routes
    std::filesystem::path routes_file;        ///< --routes-file
    std::string search;                       ///< --search
    std::filesystem::path cache;              ///< --cache (or --store PATH)
    std::string store;                        ///< --store postgresql://...: the shared study store
    std::string study;                        ///< --study (default: the spec's name)
    double lease_s = 60;                      ///< --lease of the in-process worker (with --store URL)
    int queue_depth = 16;                     ///< --queue-depth: candidates queued at once (with --store URL)
    bool resume = false;                      ///< --continue
    bool ignore_fingerprint = false;          ///< --ignore-fingerprint
    bool keep_artifacts = false;              ///< --keep-artifacts
    std::filesystem::path output;             ///< --output
    int jobs = 1;                             ///< --jobs
    int measure_lanes = 1;                    ///< --measure-lanes
    std::optional<double> time_limit_s;       ///< --time-limit
    std::optional<double> started_s;          ///< the runner's clock when the command started: the limit counts from it
    std::optional<std::uint64_t> max_routes;  ///< --max-routes
    std::optional<int> mixed_max_knobs;       ///< --mixed-max-knobs
    std::optional<std::uint64_t> seed;        ///< --seed
    bool include_unsafe = false;              ///< --include-unsafe
    bool minimize = false;                    ///< --minimize
    std::string command_line;                 ///< recorded in the study header
};

}  // namespace routetune
