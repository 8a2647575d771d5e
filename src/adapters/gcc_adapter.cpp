// GCC discovery: identify the executable (path, version, SHA-256) and look the catalog up in
// the catalog cache under that identity plus the base flags. On a miss, run
// `gcc -Q --help=optimizers --help=params --help=target BASE...` in the C locale and parse
// its three sections, take help texts from the same run without -Q, check that the base
// flags alone compile the tiny program, probe every knob value in batches (gcc_probe.cpp;
// the -O knob too), tag "inactive-at-O0" when the base level is -O0, and store the result.
// User-declared knobs are added after the cache, so editing them never needs a rediscovery;
// so is the host-ISA filter (host_isa_probe.cpp), so a cache shared by machines with other
// CPUs never holds one machine's view.
#include "adapters/gcc_adapter.hpp"

#include "adapters/compiler_runner.hpp"
#include "adapters/gcc_flags.hpp"
#include "adapters/gcc_help_parser.hpp"
#include "adapters/gcc_route_check.hpp"
#include "adapters/catalog_cache.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/process.hpp"

namespace routetune {

namespace {

const std::string probe_program = "int main(void){return 0;}\n";

}  // namespace

GccAdapter::GccAdapter(AdapterOptions options) : options_(std::move(options)) {}

Catalog GccAdapter::discover() {
    CompilerIdentity identity = identify_compiler("gcc", options_.compiler);
    CatalogCache cache(options_.cache_dir);
    std::string key = CatalogCache::key(identity, options_.base_flags, gcc_discovery_version);
    std::optional<Catalog> catalog;
    if (options_.use_cache) catalog = cache.load(key);
    if (!catalog || catalog->compiler.path != identity.path || catalog->compiler.binary_sha256 != identity.binary_sha256) {
        catalog = discover_fresh(identity);
        if (options_.use_cache) cache.store(key, *catalog);
    }
    for (const auto& knob : options_.declared_knobs) catalog->add(knob);
    last_host_isa_ = HostIsaOutcome{};
    if (options_.host_isa_only) last_host_isa_ = apply_gcc_host_isa(*catalog, identity, options_.use_cache ? &cache : nullptr);
    return *catalog;
}

Catalog GccAdapter::discover_fresh(const CompilerIdentity& identity) {
    ++fresh_discoveries_;
    ScratchFolder scratch("routetune-gcc-");
    auto help = [&](bool values) {
        std::vector<std::string> args = {"--help=optimizers", "--help=params", "--help=target"};
        if (values) args.insert(args.begin(), "-Q");
        args.insert(args.end(), options_.base_flags.begin(), options_.base_flags.end());
        auto result = run_compiler(identity, args, scratch.path);
        if (!result.succeeded()) {
            throw UsageError("compiler '" + options_.compiler + "' failed on " + (values ? "-Q " : "") +
                             "--help=optimizers with the base flags: " + describe_failure(result));
        }
        return result.out;
    };
    bool cxx = identity.path.find("++") != std::string::npos;
    std::string language = cxx ? "C++" : "C";
    std::string states = help(true);
    std::vector<Knob> knobs = parse_gcc_optimizers(states, language);
    for (auto& knob : parse_gcc_params(states, language)) knobs.push_back(std::move(knob));
    for (auto& knob : parse_gcc_target(states, language)) knobs.push_back(std::move(knob));
    add_gcc_descriptions(knobs, help(false));
    ProbeCompiler compile = [&](const std::vector<std::string>& flags) {
        std::vector<std::string> args = options_.base_flags;
        args.insert(args.end(), flags.begin(), flags.end());
        for (const char* arg : {"-c", "-o", "/dev/null", "-x", cxx ? "c++" : "c", "-"}) args.push_back(arg);
        auto result = run_compiler(identity, args, scratch.path, probe_program);
        return ProbeCompile{result.succeeded(), result.err};
    };
    auto baseline = compile({});
    if (!baseline.accepted) {
        throw UsageError("compiler '" + options_.compiler + "' rejects the base flags on a test compile: " +
                         tail_of(baseline.diagnostics, 600));
    }
    knobs.push_back(make_gcc_opt_level_knob(options_.base_flags));  // probed too: -Oz is new in GCC 12
    last_probe_ = probe_gcc_knobs(knobs, compile);
    ++last_probe_.compiles;
    if (gcc_opt_level(options_.base_flags) == "0") tag_inactive_at_o0(knobs);
    Catalog catalog;
    catalog.compiler = identity;
    for (auto& knob : knobs) catalog.add(std::move(knob));
    return catalog;
}

AppliedRoute GccAdapter::apply(const Route& route, const Catalog& catalog) const {
    AppliedRoute applied;
    applied.flags = apply_gcc_route(options_.base_flags, route, catalog);
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        if (knob && !knob->application.env_name.empty()) applied.environment[knob->application.env_name] = value;
    }
    return applied;
}

RouteCheck GccAdapter::check(const Route& route, const Catalog& catalog, const AppliedRoute& applied) const {
    if (catalog.compiler.path.empty()) return Adapter::check(route, catalog, applied);
    return check_applied_route(route, catalog, applied, gcc_account_source(catalog.compiler), *checks_);
}

std::unique_ptr<Adapter> make_gcc_adapter(AdapterOptions options) {
    return std::make_unique<GccAdapter>(std::move(options));
}

}  // namespace routetune
