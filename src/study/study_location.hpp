// Where a study lives, worked out in this one place from the options: --store names it (a file
// path, or a database URL with --study picking the study), --cache is the older name of a file
// store, and without either it is <spec dir>/.routetune/<study>.sqlite. A study in a database
// still keeps its local files (the work folders, references) where the file store would be.
#pragma once

#include <string>

#include "eval/study_paths.hpp"
#include "routetune/spec.hpp"
#include "store/store_location.hpp"
#include "study/tune_options.hpp"

namespace routetune {

/// Puts --store TEXT into options: a database URL as options.store, a file path as
/// options.cache. Throws UsageError when options.cache is set too (--store and --cache).
void set_study_store(TuneOptions& options, const std::string& text);

/// The study's files: options.cache, else <spec dir>/.routetune/<options.study, else the spec's
/// name>.sqlite.
StudyPaths study_paths(const Spec& spec, const TuneOptions& options);

/// Where options say the study lives: --store URL (the study --study, else the spec's name),
/// else the file of paths.
StoreLocation study_store_location(const TuneOptions& options, const std::string& spec_name, const StudyPaths& paths);

}  // namespace routetune
