// The study's location from the options (see study_location.hpp). Which texts name a database
// is the store's question (StoreLocation::shares_work); this file only routes the answer.
#include "study/study_location.hpp"

#include "routetune/error.hpp"

namespace routetune {

void set_study_store(TuneOptions& options, const std::string& text) {
    if (text.empty()) return;
    if (!options.cache.empty()) throw UsageError("--store and --cache both name the study store; give one");
    if (StoreLocation(text).shares_work()) options.store = text;
    else options.cache = text;
}

StudyPaths study_paths(const Spec& spec, const TuneOptions& options) {
    return make_study_paths(spec.dir, options.study.empty() ? spec.name : options.study, options.cache);
}

StoreLocation study_store_location(const TuneOptions& options, const std::string& spec_name, const StudyPaths& paths) {
    if (options.store.empty() || StoreLocation(options.store).is_file()) return StoreLocation(paths.cache);
    return StoreLocation(options.store, options.study.empty() ? spec_name : options.study);
}

}  // namespace routetune
