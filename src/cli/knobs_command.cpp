// `routetune knobs`: discovers the catalog of the spec's compiler (or of --adapter/--compiler
// with --base) and prints it as a table (name, type, values or range, default, tags) or, with
// --json, as the catalog_to_json document. --filter keeps the knobs whose names match a glob
// (fnmatch: `*`, `?`, `[...]`). The values `~` leaves out on this machine (Knob::left_out)
// follow the table, each with its reason; --json has them as each knob's "left_out".
#include <fnmatch.h>

#include <algorithm>
#include <iostream>
#include <sstream>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "adapters/adapter_registry.hpp"
#include "report/left_out_note.hpp"
#include "routetune/adapter.hpp"
#include "routetune/error.hpp"
#include "routetune/spec.hpp"
#include "util/output_schema.hpp"

namespace routetune::cli {

namespace {

struct KnobsOptions {
    std::string spec;
    std::string adapter;
    std::string compiler;
    std::string base;
    bool has_base = false;
    std::string filter;
    bool json = false;
    bool no_cache = false;
    bool all_isa = false;
};

std::string shorten(const std::string& text, std::size_t width) {
    if (text.size() <= width) return text;
    return text.substr(0, width - 3) + "...";
}

std::string join(const std::vector<std::string>& words, const char* separator) {
    std::string text;
    for (const auto& word : words) text += (text.empty() ? "" : separator) + word;
    return text;
}

void print_table(const Catalog& catalog, std::ostream& out) {
    std::size_t name_width = 4;
    for (const auto& knob : catalog.knobs()) name_width = std::max(name_width, knob.name.size());
    auto row = [&](const std::string& name, const std::string& type, const std::string& allowed,
                   const std::string& fallback, const std::string& tags) {
        std::string line = name + std::string(name_width + 2 - name.size(), ' ');
        line += type + std::string(6 - std::min<std::size_t>(type.size(), 5), ' ');
        std::string values = shorten(allowed, 40);
        line += values + std::string(42 - values.size(), ' ');
        std::string shown = shorten(fallback, 14);
        line += shown + std::string(16 - shown.size(), ' ') + tags;
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out << line << "\n";
    };
    out << "# " << catalog.compiler.adapter << " " << catalog.compiler.path << ": " << catalog.compiler.version << "\n";
    row("NAME", "TYPE", "VALUES", "DEFAULT", "TAGS");
    for (const auto& knob : catalog.knobs()) {
        row(knob.name, std::string(to_string(knob.type)), knob.allowed_text(),
            knob.default_value.empty() ? "?" : knob.default_value, join(knob.tags, ","));
    }
    out << catalog.knobs().size() << " knobs\n";
    out << left_out_details(left_out_values(catalog));
}

int run(const KnobsOptions& options) {
    std::optional<Spec> spec;
    if (!options.spec.empty()) spec = load_spec(options.spec);
    AdapterChoice choice =
        choose_adapter(spec ? &*spec : nullptr, options.adapter, options.compiler, options.base, options.has_base);
    choice.options.use_cache = !options.no_cache;
    if (options.all_isa) choice.options.host_isa_only = false;
    if (!spec && !options.has_base && choice.name == "gcc")
        std::cerr << "routetune: note: no spec and no --base, so the defaults shown are gcc's at -O0; "
                     "pass --base -O2 (or a spec) for the defaults of another level\n";
    Catalog catalog = make_adapter(choice.name, choice.options)->discover();
    if (!options.filter.empty()) {
        Catalog kept;
        kept.compiler = catalog.compiler;
        for (const auto& knob : catalog.knobs()) {
            if (fnmatch(options.filter.c_str(), knob.name.c_str(), 0) == 0) kept.add(knob);
        }
        catalog = std::move(kept);
    }
    if (options.json) {
        std::cout << versioned_json_text(nlohmann::ordered_json::parse(catalog_to_json(catalog)));
    } else {
        print_table(catalog, std::cout);
    }
    return 0;
}

}  // namespace

void add_knobs_command(CLI::App& app, Action& action) {
    auto options = std::make_shared<KnobsOptions>();
    CLI::App* command = app.add_subcommand("knobs", "Discover and list a compiler's knobs (its catalog)");
    command->add_option("spec", options->spec, "Spec file whose [compiler] to use");
    command->add_option("--adapter", options->adapter, adapter_list(" | ") + " (default: the spec's, else gcc)");
    command->add_option("--compiler", options->compiler, "Compiler executable (default: the adapter's usual one)");
    auto* base = command->add_option("--base", options->base,
                                     "Base flags, one string split on whitespace (--base=\"-O2 -g\")");
    command->add_option("--filter", options->filter, "Only knobs whose name matches this glob (e.g. '-fsched*')");
    command->add_flag("--json", options->json, "Print the catalog as JSON");
    command->add_flag("--no-cache", options->no_cache, "Discover afresh, bypassing the catalog cache");
    command->add_flag("--all-isa", options->all_isa,
                      "Leave nothing out of ~ for this machine's CPU (as [compiler] host_isa_only = false)");
    command->footer("Exit codes: 0 the catalog was listed; 1 discovery failed (the compiler could not be run); 2 bad options or spec.");
    command->callback([options, base, &action] {
        options->has_base = base->count() > 0;
        action = [options] { return run(*options); };
    });
}

}  // namespace routetune::cli
