// GPT tuning caches as routetune studies: `import-trtexec` turns a cache written by
// `trtexec --tuneBuildRoutes --tuningCacheFile=...` into a study store that `report` reads,
// and `export-trtexec` writes a study store back as a tuning cache for GPT's tools.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "routetune/study.hpp"

namespace routetune {

/// How a cache is imported.
struct TrtexecImportOptions {
    std::optional<double> threshold;  ///< overrides the cache's accuracy epsilon (>= 0)
};

/// What an import wrote.
struct TrtexecImportResult {
    std::size_t iterations = 0;  ///< evaluations recorded
    Outcome outcome = Outcome::Unfinished;  ///< improved, default-stays or no-eligible-route
};

/// Reads the tuning cache at cache_file and writes it as a new study at store_file: header
/// from the cache's header (name = the cache's file stem, expression = tuning_expr, mode =
/// searching_algorithm, command line = trtexec's; tuner version, accuracy settings,
/// default_build_route, files and argv as "trtexec.*" fingerprint keys), one evaluation per
/// iteration (the first all-default route is phase "default"), and the outcome GPT's rule
/// gives: the fastest accurate route wins when faster than the default (one GPU time per
/// route, so the speedup's interval is the point itself). Throws UsageError for an unreadable
/// or malformed cache, a negative threshold, or a store that already holds evaluations.
TrtexecImportResult import_trtexec_cache(const std::filesystem::path& cache_file, const std::filesystem::path& store_file,
                                         const TrtexecImportOptions& options = {});

/// The finished evaluations of the study at store_file as tuning-cache text (JSON lines). The
/// header comes from the "trtexec.*" fingerprint keys of an imported study; else from the
/// study (expression, mode, command line, tuner version from the compiler's version) and the
/// accuracy settings of its spec when that file still loads. Throws UsageError when
/// store_file is missing or holds no study.
std::string export_trtexec_cache(const std::filesystem::path& store_file);

}  // namespace routetune
