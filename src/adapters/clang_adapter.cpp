// Clang discovery. Clang prints no option states, so the catalog is assembled from what it
// does say, then checked by compiling:
// - candidates: `--autocomplete=-f` and `=-m` (the driver's own option list, filtered to
//   optimisation families: clang_knob_selection.cpp), the -O levels, -march/-mtune with the
//   CPUs of clang's note for an unknown CPU (--print-supported-cpus where it gives none);
// - probing: a tiny compile with every candidate value in batches (gcc_probe.cpp) under
//   -Werror=unused-command-line-argument -Werror=ignored-optimization-argument, so the GCC
//   flags clang accepts and ignores ("optimization flag '-fgcse' is not supported") and
//   options of other targets fail and are dropped;
// - defaults: clang_defaults.cpp (driver lines for -f, feature macros for -m, the cc1
//   -target-cpu and -tune-cpu for -march and -mtune);
// - LLVM options: `-mllvm --help-list-hidden` (types, enum values) and `-mllvm
//   --print-all-options` (defaults) at the base flags, for the optimisation families and the
//   host target's options. They come from the compiler's own parser, so they are not probed.
// The catalog is cached under the compiler's identity, the base flags and the discovery
// version; declared knobs are added after the cache, and so is the host-ISA filter
// (host_isa_probe.cpp: the feature macros of -march=native and of each -march value).
#include "adapters/clang_adapter.hpp"

#include <algorithm>
#include <set>

#include "adapters/clang_catalog_parser.hpp"
#include "adapters/catalog_cache.hpp"
#include "adapters/clang_defaults.hpp"
#include "adapters/clang_driver.hpp"
#include "adapters/clang_llvm_flags.hpp"
#include "adapters/clang_route_check.hpp"
#include "adapters/compiler_runner.hpp"
#include "adapters/gcc_flags.hpp"
#include "adapters/gcc_help_parser.hpp"
#include "adapters/host_isa_probe.hpp"
#include "adapters/tool_runner.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/text.hpp"

namespace routetune {

namespace {

const std::string probe_program = "int main(void){return 0;}\n";

std::string join(const std::vector<std::string>& words, const char* separator) {
    std::string text;
    for (const auto& word : words) text += (text.empty() ? "" : separator) + word;
    return text;
}

// The value after `quoted_flag` on the cc1 line (`"-target-cpu" "x86-64"` → x86-64).
std::string cc1_value(const std::string& line, const std::string& quoted_flag) {
    auto at = line.find("\"" + quoted_flag + "\" \"");
    if (at == std::string::npos) return {};
    auto start = at + quoted_flag.size() + 4;
    return line.substr(start, line.find('"', start) - start);
}

class Discovery {
public:
    Discovery(const AdapterOptions& options, const CompilerIdentity& identity)
        : options_(options), identity_(identity), cxx_(identity.path.find("++") != std::string::npos) {}

    std::string text(std::vector<std::string> args, bool with_base) {
        if (with_base) args.insert(args.begin(), options_.base_flags.begin(), options_.base_flags.end());
        auto result = run_compiler(identity_, args, scratch_.path);
        if (!result.succeeded()) {
            throw UsageError("compiler '" + options_.compiler + "' failed on " + join(args, " ") + ": " +
                             describe_failure(result));
        }
        return result.out + result.err;
    }

    ProbeCompile compile(const std::vector<std::string>& flags) const {
        std::vector<std::string> args = with_base(flags);
        for (const char* arg : {"-Werror=unused-command-line-argument", "-Werror=ignored-optimization-argument",
                                "-fno-color-diagnostics", "-c", "-o", "/dev/null", "-x", cxx_ ? "c++" : "c", "-"}) {
            args.push_back(arg);
        }
        auto result = run_compiler(identity_, args, scratch_.path, probe_program);
        return ProbeCompile{result.succeeded(), result.err};
    }

    std::vector<std::string> with_base(const std::vector<std::string>& flags) const {
        std::vector<std::string> args = options_.base_flags;
        args.insert(args.end(), flags.begin(), flags.end());
        return args;
    }

    // The cc1 line; "" when the driver rejects the flags.
    std::string driver_line(const std::vector<std::string>& flags) const {
        return clang_cc1_line(identity_, with_base(flags), scratch_.path).value_or(std::string());
    }

    std::set<std::string> macros(const std::vector<std::string>& flags) const {
        return clang_macros(identity_, with_base(flags), scratch_.path).value_or(std::set<std::string>());
    }

    // The macros defined with any of flags on: all at once, or, where some of them cannot be
    // combined (-mretpoline with -mseses), the union over the two halves.
    std::set<std::string> macros_with_each(const std::vector<std::string>& flags) const {
        auto all = macros(flags);
        if (!all.empty() || flags.size() < 2) return all;
        auto middle = flags.begin() + static_cast<std::ptrdiff_t>(flags.size() / 2);
        all = macros_with_each({flags.begin(), middle});
        all.merge(macros_with_each({middle, flags.end()}));
        return all;
    }

    Knob cpu_knob(const std::string& name, const std::string& default_value) const {
        Knob knob{.name = name, .type = KnobType::Enum, .default_value = default_value};
        knob.values = parse_clang_valid_cpus(compile({name + "=routetune-invalid-value"}).diagnostics);
        if (knob.values.empty()) knob.values = parse_clang_cpus(run_compiler(identity_, {"--print-supported-cpus"}, scratch_.path).err);
        knob.values.push_back("native");
        if (name == "-mtune" && std::find(knob.values.begin(), knob.values.end(), "generic") == knob.values.end()) {
            knob.values.push_back("generic");
        }
        if (!knob.allows(default_value)) knob.default_value.clear();
        knob.help = name == "-march" ? "the CPU to generate code for" : "the CPU to tune the code for";
        knob.tags = {"target"};
        return knob;
    }

    const AdapterOptions& options_;
    const CompilerIdentity& identity_;
    bool cxx_;
    ScratchFolder scratch_{"routetune-clang-"};
};

}  // namespace

ClangAdapter::ClangAdapter(AdapterOptions options) : options_(std::move(options)) {}

Catalog ClangAdapter::discover() {
    CompilerIdentity identity = identify_compiler("clang", options_.compiler);
    std::string extra = std::string(clang_discovery_version) + "\n" + join(options_.base_flags, "\n");
    Catalog catalog = discover_with_cache(options_, identity, extra, [&] { return discover_fresh(identity); });
    if (options_.host_isa_only) {
        CatalogCache cache(options_.cache_dir);
        apply_clang_host_isa(catalog, identity, options_.use_cache ? &cache : nullptr);
    }
    return catalog;
}

Catalog ClangAdapter::discover_fresh(const CompilerIdentity& identity) {
    ++fresh_discoveries_;
    Discovery clang(options_, identity);
    auto entries = parse_clang_autocomplete(clang.text({"--autocomplete=-f"}, false));
    for (auto& entry : parse_clang_autocomplete(clang.text({"--autocomplete=-m"}, false))) entries.push_back(entry);
    std::vector<Knob> knobs = clang_switch_knobs(entries);
    auto baseline = clang.compile({});
    if (!baseline.accepted) {
        throw UsageError("compiler '" + options_.compiler + "' rejects the base flags on a test compile: " +
                         tail_of(baseline.diagnostics, 600));
    }
    std::string base_line = clang.driver_line({});
    knobs.push_back(clang.cpu_knob("-march", cc1_value(base_line, "-target-cpu")));
    std::string tune = cc1_value(base_line, "-tune-cpu");
    knobs.push_back(clang.cpu_knob("-mtune", tune.empty() ? "generic" : tune));
    knobs.push_back(make_gcc_opt_level_knob(options_.base_flags));
    last_probe_ = probe_gcc_knobs(knobs, [&](const std::vector<std::string>& flags) { return clang.compile(flags); });
    last_probe_.compiles += 3;
    set_optimizer_defaults(knobs, [&](const std::vector<std::string>& flags) { return clang.driver_line(flags); });
    std::vector<std::string> all_on;
    for (const auto& knob : knobs) {
        if (knob.type == KnobType::Bool && knob.name.starts_with("-m") && knob.allows("on")) all_on.push_back(knob.name);
    }
    set_target_defaults(knobs, clang.macros({}), clang.macros_with_each(all_on));
    std::string triple = std::string(trim(clang.text({"-dumpmachine"}, true)));
    std::vector<std::string> file = {"-c", "-x", "c", "/dev/null", "-o", "/dev/null"};
    auto with = [&](const char* option) {
        std::vector<std::string> args = {"-mllvm", option};
        args.insert(args.end(), file.begin(), file.end());
        return clang.text(args, true);
    };
    for (auto& knob : parse_llvm_options(with("--help-list-hidden"), with("--print-all-options"), llvm_target_prefix(triple))) {
        knobs.push_back(std::move(knob));
    }
    if (gcc_opt_level(options_.base_flags) == "0") tag_inactive_at_o0(knobs);
    Catalog catalog;
    catalog.compiler = identity;
    for (auto& knob : knobs) catalog.add(std::move(knob));
    return catalog;
}

AppliedRoute ClangAdapter::apply(const Route& route, const Catalog& catalog) const {
    Route driver_route;
    std::vector<std::string> llvm_flags;
    std::vector<std::string> llvm_names;
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        if (!knob || !name.starts_with(kMllvmKnobPrefix)) {
            driver_route.set(name, value);
            continue;
        }
        for (auto& flag : llvm_option_flags(*knob, value)) llvm_flags.push_back(std::move(flag));
        llvm_names.push_back("-" + name.substr(kMllvmKnobPrefix.size()));
    }
    std::vector<std::string> base;
    const auto& given = options_.base_flags;
    for (std::size_t i = 0; i < given.size(); ++i) {
        bool pair = given[i] == "-mllvm" && i + 1 < given.size();
        bool overridden = pair && std::any_of(llvm_names.begin(), llvm_names.end(), [&](const std::string& option) {
            return given[i + 1] == option || given[i + 1].starts_with(option + "=");
        });
        if (overridden) {
            ++i;
            continue;
        }
        base.push_back(given[i]);
    }
    AppliedRoute applied;
    applied.flags = apply_gcc_route(base, driver_route, catalog);
    applied.flags.insert(applied.flags.end(), llvm_flags.begin(), llvm_flags.end());
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        if (knob && !knob->application.env_name.empty()) applied.environment[knob->application.env_name] = value;
    }
    return applied;
}

RouteCheck ClangAdapter::check(const Route& route, const Catalog& catalog, const AppliedRoute& applied) const {
    if (catalog.compiler.path.empty()) return Adapter::check(route, catalog, applied);
    auto source = clang_account_source(catalog.compiler, clang_route_needs_macros(route, catalog));
    return check_applied_route(route, catalog, applied, source, *checks_);
}

std::unique_ptr<Adapter> make_clang_adapter(AdapterOptions options) {
    return std::make_unique<ClangAdapter>(std::move(options));
}

}  // namespace routetune
