#include "eval/study_paths.hpp"

namespace routetune {

StudyPaths make_study_paths(const std::filesystem::path& spec_dir, const std::string& study_name,
                            const std::filesystem::path& cache) {
    StudyPaths paths;
    paths.cache = cache.empty() ? spec_dir / ".routetune" / (study_name + ".sqlite")
                                : std::filesystem::absolute(cache);
    paths.root = paths.cache;
    paths.root.replace_extension();
    paths.root += ".d";
    paths.work = paths.root / "work";
    paths.references = paths.root / "references";
    return paths;
}

}  // namespace routetune
