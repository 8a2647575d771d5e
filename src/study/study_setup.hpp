// Everything a study needs before its first build: the spec with the command line's
// overrides, the adapter and its catalog, the parsed expression, the search's name and its
// strategy (made here once: making it is what checks the name and the expression).
#pragma once

#include <memory>
#include <string>

#include "routetune/adapter.hpp"
#include "routetune/expression.hpp"
#include "routetune/spec.hpp"
#include "routetune/strategy.hpp"
#include "study/tune_options.hpp"

namespace routetune {

/// A spec made ready to tune.
struct StudySetup {
    Spec spec;                         ///< with command-line overrides applied
    std::unique_ptr<Adapter> adapter;
    Catalog catalog;
    Expression expression;
    std::string search;                ///< strategy name
    std::unique_ptr<Strategy> strategy;  ///< made once from search (which checks it); the study's run takes it
};

/// The adapter options a spec implies (compiler, base flags, declared knobs).
AdapterOptions adapter_options_for(const Spec& spec);

/// Applies options to spec, discovers the catalog and parses the expression (from --routes,
/// --routes-file, or the spec); throws UsageError for a missing or bad expression, an unknown
/// search, or a full search larger than max_routes.
StudySetup prepare_study(Spec spec, const TuneOptions& options);

}  // namespace routetune
