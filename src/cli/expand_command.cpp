// `routetune expand`: finds the catalog (from the spec's compiler, or --adapter/--compiler/
// --base) and prints the candidates of a route expression; the work is run_expand().
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "report/expand_report.hpp"
#include "routetune/adapter.hpp"
#include "routetune/error.hpp"
#include "adapters/adapter_registry.hpp"
#include "spec/value_ranges.hpp"
#include "routetune/spec.hpp"
#include "search/strategy_registry.hpp"

namespace routetune::cli {

namespace {

struct ExpandOptions {
    std::string spec;
    std::string routes;
    std::string routes_file;
    std::string mode;
    bool count = false;
    std::string limit;
    bool has_limit = false;
    bool json = false;
    bool include_unsafe = false;
    bool all_isa = false;
    std::string adapter;
    std::string compiler;
    std::string base;
    bool has_base = false;
    std::string mixed_max_knobs;
    bool has_mixed_max_knobs = false;
};

int run(const ExpandOptions& options) {
    ExpandRequest request;
    std::optional<Spec> spec;
    if (!options.spec.empty()) {
        spec = load_spec(options.spec);
        request.routes = spec->search.routes;
        request.routes_source = spec->file.string() + " [search] routes";
        request.routes_file = spec->search.routes_file;
        request.mode = spec->search.mode;
        request.include_unsafe = spec->search.include_unsafe;
        request.mixed_max_knobs = spec->search.mixed_max_knobs;
    } else if (options.routes.empty() && options.routes_file.empty()) {
        throw UsageError("expand needs a SPEC, or --routes EXPR / --routes-file F (with --adapter, --compiler, --base)");
    }
    AdapterChoice choice =
        choose_adapter(spec ? &*spec : nullptr, options.adapter, options.compiler, options.base, options.has_base);
    if (!options.routes.empty()) {
        request.routes = options.routes;
        request.routes_source = "--routes";
        request.routes_file.clear();
    }
    if (!options.routes_file.empty()) request.routes_file = options.routes_file;
    if (!options.mode.empty()) request.mode = options.mode;
    if (options.has_mixed_max_knobs)
        request.mixed_max_knobs =
            static_cast<int>(parse_integer_option(options.mixed_max_knobs, ranges::mixed_max_knobs, "--mixed-max-knobs"));
    request.include_unsafe = request.include_unsafe || options.include_unsafe;
    request.count_only = options.count;
    request.json = options.json;
    request.notes = &std::cerr;
    if (options.has_limit) request.limit = parse_integer_option(options.limit, ranges::expand_limit, "--limit");
    if (options.all_isa) choice.options.host_isa_only = false;
    Catalog catalog = make_adapter(choice.name, choice.options)->discover();
    return run_expand(catalog, request, std::cout);
}

}  // namespace

void add_expand_command(CLI::App& app, Action& action) {
    auto options = std::make_shared<ExpandOptions>();
    CLI::App* command = app.add_subcommand("expand", "Print the candidate routes of a route expression (runs nothing)");
    command->add_option("spec", options->spec, "study spec (TOML); its [compiler] and [search] are the defaults");
    auto* routes = command->add_option("--routes", options->routes, "route expression, e.g. '-O=[2|3] -f*=~'");
    auto* routes_file = command->add_option("--routes-file", options->routes_file, "file holding a route expression");
    routes->excludes(routes_file);
    command->add_option("--search", options->mode, strategy_list(" | ", false) + " (default: the spec's, else fast; an adaptive one lists the space it searches)");
    command->add_flag("--count", options->count, "print only the exact number of candidates");
    auto* limit = command->add_option("--limit", options->limit, "print at most N candidates");
    command->add_flag("--json", options->json,
                      "print {\"schema_version\",\"mode\",\"adaptive\",\"expression\",\"count\",\"count_exact\",\"candidates\"}");
    command->add_flag("--include-unsafe", options->include_unsafe, "let globs match knobs tagged unsafe");
    command->add_flag("--all-isa", options->all_isa,
                      "leave nothing out of ~ for this machine's CPU (as [compiler] host_isa_only = false)");
    command->add_option("--adapter", options->adapter, adapter_list(" | ") + " when there is no spec (default gcc)");
    command->add_option("--compiler", options->compiler, "compiler executable whose knobs are discovered");
    auto* base = command->add_option("--base", options->base, "base flags of the default route, one string split on whitespace");
    auto* mixed = command->add_option("--mixed-max-knobs", options->mixed_max_knobs, "knobs in mixed phase two (for its bound)");
    command->footer("Exit codes: 0 the candidates (or their count) were printed; 2 bad spec, expression or options.");
    command->callback([options, limit, base, mixed, &action] {
        options->has_limit = limit->count() > 0;
        options->has_mixed_max_knobs = mixed->count() > 0;
        options->has_base = base->count() > 0;
        action = [options] { return run(*options); };
    });
}

}  // namespace routetune::cli
