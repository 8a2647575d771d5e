// Promotion-only cases are dropped here: tuning never runs them (promote does); what remains
// must hold a timed case (component-failure cases are checks, never timed). Overrides go from most to least specific: the command line, then the spec's [search]. The
// expression comes from exactly one place; a full search is counted exactly (BigCount) and
// refused before anything runs when it exceeds max_routes.
#include "study/study_setup.hpp"

#include <algorithm>

#include "eval/case_judgement.hpp"
#include "routetune/error.hpp"
#include "routetune/strategy.hpp"
#include "routetune/timing.hpp"

namespace routetune {

AdapterOptions adapter_options_for(const Spec& spec) {
    AdapterOptions options;
    options.compiler = spec.compiler.path;
    options.base_flags = spec.compiler.base;
    options.declared_knobs = spec.knobs;
    options.host_isa_only = spec.compiler.host_isa_only;
    return options;
}

StudySetup prepare_study(Spec spec, const TuneOptions& options) {
    if (!options.search.empty()) spec.search.mode = options.search;
    if (options.max_routes) spec.search.max_routes = *options.max_routes;
    if (options.time_limit_s) spec.search.time_limit_s = *options.time_limit_s;
    if (options.mixed_max_knobs) spec.search.mixed_max_knobs = *options.mixed_max_knobs;
    if (options.seed) spec.search.seed = *options.seed;
    if (options.include_unsafe) spec.search.include_unsafe = true;
    std::erase_if(spec.cases, [](const CaseSpec& entry) { return entry.promotion_only; });
    if (std::none_of(spec.cases.begin(), spec.cases.end(), is_timed))
        throw UsageError(spec.file.string() + ": every [[case]] is promotion_only or component-failure; tuning needs "
                                              "at least one case it runs and times");
    if (!options.routes.empty() && !options.routes_file.empty())
        throw UsageError("give either --routes or --routes-file, not both");

    if (options.measure_lanes > 1 && !timing_source_traits(spec.timing.source).overlaps_builds) {
        throw UsageError("--measure-lanes " + std::to_string(options.measure_lanes) +
                         ": lanes measure on separate GPUs, which needs [timing] source = \"reported\" "
                         "(process timing measures on the shared CPU: one lane)");
    }

    StudySetup setup;
    setup.adapter = make_adapter(spec.compiler.adapter, adapter_options_for(spec));
    setup.catalog = setup.adapter->discover();
    ExpressionOptions expression_options;
    expression_options.include_unsafe = spec.search.include_unsafe;
    if (!options.routes.empty()) {
        expression_options.source = "--routes";
        setup.expression = parse_expression(options.routes, setup.catalog, expression_options);
    } else if (!options.routes_file.empty()) {
        setup.expression = parse_expression_file(options.routes_file, setup.catalog, expression_options);
    } else if (!spec.search.routes_file.empty()) {
        setup.expression = parse_expression_file(spec.search.routes_file, setup.catalog, expression_options);
    } else if (!spec.search.routes.empty()) {
        expression_options.source = spec.file.string() + ": [search] routes";
        setup.expression = parse_expression(spec.search.routes, setup.catalog, expression_options);
    } else {
        throw UsageError(spec.file.string() + ": no route expression: set [search] routes or give --routes");
    }
    setup.search = spec.search.mode;
    setup.strategy =
        make_strategy(setup.search, setup.expression, StrategyOptions{spec.search.seed, spec.search.mixed_max_knobs});
    if (setup.search == "full") {
        BigCount count = count_candidates(setup.expression, ExpansionMode::Full);
        if (count > BigCount(spec.search.max_routes)) {
            throw UsageError("full search over '" + setup.expression.text + "' has " + count.to_string() +
                             " candidates, more than --max-routes " + std::to_string(spec.search.max_routes) +
                             " (narrow the expression, raise --max-routes, or use --search fast|mixed|auto)");
        }
    }
    setup.spec = std::move(spec);
    return setup;
}

}  // namespace routetune
