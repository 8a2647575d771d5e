// Where a study keeps its files: the SQLite cache, and beside it a folder with one work
// folder per evaluation (which holds its artifact), the reference outputs and the lock.
#pragma once

#include <filesystem>
#include <string>

namespace routetune {

/// The files of one study.
struct StudyPaths {
    std::filesystem::path cache;       ///< the SQLite study store
    std::filesystem::path root;        ///< <cache without .sqlite>/: everything else
    std::filesystem::path work;        ///< root/work/<route hash>/: one evaluation's scratch folder
    std::filesystem::path references;  ///< root/references/<case>.out: the default's outputs

    /// The scratch folder of the evaluation of the route with this hash.
    std::filesystem::path workdir(const std::string& route_hash) const { return work / route_hash; }
};

/// The paths for cache (default: <spec dir>/.routetune/<study name>.sqlite when cache is empty).
StudyPaths make_study_paths(const std::filesystem::path& spec_dir, const std::string& study_name,
                            const std::filesystem::path& cache = {});

}  // namespace routetune
