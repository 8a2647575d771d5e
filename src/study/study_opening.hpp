// Opening a study's store for a tune run, and the references its runs are checked against.
#pragma once

#include <map>
#include <string>

#include "routetune/evaluation.hpp"
#include "routetune/spec.hpp"
#include "eval/evaluator.hpp"
#include "eval/study_paths.hpp"
#include "study/study_setup.hpp"
#include "study/tune_options.hpp"
#include "store/study_store.hpp"

namespace routetune {

/// Opens the store for this run. Without options.resume an existing study is moved aside
/// (StudyStore::open_new_study; moved_aside_to() names where) and a new one begins; with it,
/// a study must exist there (StudyStore::open_to_continue: else UsageError saying so), the
/// recorded fingerprint must
/// match (else FingerprintMismatch listing the differences, unless ignore_fingerprint) and so
/// must the expression and search (else UsageError).
std::unique_ptr<StudyStore> open_study(const StudySetup& setup, const TuneOptions& options, const StudyPaths& paths);

/// The environment fingerprint of this study as key -> value: take_fingerprint's keys plus
/// compiler.catalog_version (the version discovery read, when it read one).
std::map<std::string, std::string> study_fingerprint(const StudySetup& setup);

/// Writes the default route's case outputs and wall times under paths.references.
void save_default_record(const StudyPaths& paths, const DefaultRecord& record);

/// The golden outputs of the cases that name one (what the default route is checked against).
RunBaseline golden_baseline(const Spec& spec);

/// Golden references where cases have them, else the saved default outputs; and the
/// default's per-case wall times for relative timeouts.
RunBaseline make_run_baseline(const Spec& spec, const StudyPaths& paths);

/// True when every case names a golden reference file.
bool every_case_has_golden(const Spec& spec);

}  // namespace routetune
