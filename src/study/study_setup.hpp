// Everything a study needs before its first build: the spec with the command line's
// overrides, the adapter and its catalog, the parsed expression and the search's name.
#pragma once

#include <memory>
#include <string>

#include "routetune/adapter.hpp"
#include "routetune/expression.hpp"
#include "routetune/spec.hpp"
#include "study/tune_options.hpp"

namespace routetune {

/// A spec made ready to tune.
struct StudySetup {
    Spec spec;                         ///< with command-line overrides applied
    std::unique_ptr<Adapter> adapter;
    Catalog catalog;
    Expression expression;
    std::string search;                ///< strategy name
};

/// The adapter options a spec implies (compiler, base flags, declared knobs).
AdapterOptions adapter_options_for(const Spec& spec);

/// Applies options to spec, discovers the catalog and parses the expression (from --routes,
/// --routes-file, or the spec); throws UsageError for a missing or bad expression, an unknown
/// search, or a full search larger than max_routes.
StudySetup prepare_study(Spec spec, const TuneOptions& options);

}  // namespace routetune
