// Adapters know one compiler each: they discover its catalog and turn a route plus the
// spec's base flags into what a build needs (argv items, environment, generated files).
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routetune/catalog.hpp"
#include "routetune/route.hpp"

namespace routetune {

/// What an adapter is pointed at.
struct AdapterOptions {
    std::string compiler;                 ///< executable name or path (searched on PATH)
    std::vector<std::string> base_flags;  ///< flags of the default route
    std::vector<Knob> declared_knobs;     ///< user-declared knobs ([[knob]]), added to the catalog
    std::filesystem::path cache_dir;      ///< catalog cache folder; empty: $XDG_CACHE_HOME/routetune/catalogs
    bool use_cache = true;                ///< false: always discover afresh
    /// `~` leaves out the ISA values this machine's CPU cannot run (gcc, clang): the built
    /// programs run here. false for cross builds or programs run elsewhere.
    bool host_isa_only = true;
};

/// A file a route needs in the build's working folder (e.g. an Inductor config).
struct GeneratedFile {
    std::string name;     ///< relative to the evaluation's workdir
    std::string content;
};

/// A route applied to the base flags.
struct AppliedRoute {
    std::vector<std::string> flags;                  ///< base flags overridden by the route: {flags}
    std::map<std::string, std::string> environment;  ///< added to the build's and runs' environment
    std::vector<GeneratedFile> files;                ///< written into the evaluation's workdir
};

/// A knob of a route that the compiler would not build with the route's value.
struct KnobConflict {
    std::string knob;                        ///< e.g. "-fassociative-math"
    std::string asked;                       ///< the route's value, e.g. "on"
    std::string reported;                    ///< the value in the compiler's account, e.g. "off"
    std::vector<std::string> overridden_by;  ///< the flag that overrides it, e.g. {"-fno-fast-math"};
                                             ///< empty when no single flag does (the compiler's own rule)
    bool alone = false;                      ///< the compiler overrides it even with no other flag
};

/// What the compiler's own account of a route's final flags says (docs/route-syntax.md,
/// "The route is what was built").
struct RouteCheck {
    std::string compiler;                  ///< who gave the account ("GCC", "clang"), for messages
    bool checked = false;                  ///< false: this compiler gives no account, or it rejected the flags
    std::string note;                      ///< why nothing was checked, when checked is false
    std::vector<KnobConflict> conflicts;   ///< empty: every checked knob ends in the route's value
    std::vector<std::string> unchecked;    ///< knobs of the route the check could not judge (declared knobs)
};

/// The message of a route_conflict evaluation: each conflict's knob, asked and reported values
/// and what overrides it.
std::string describe_route_conflicts(const RouteCheck& check);

/// One compiler's knowledge. Implementations live in src/adapters/, one file each, listed in
/// its registry (src/adapters/adapter_registry.cpp).
class Adapter {
public:
    virtual ~Adapter() = default;
    /// The adapter's name as written in specs ("gcc", "nvcc", ...).
    virtual std::string name() const = 0;
    /// The compiler's catalog (from the discovery cache when still valid); throws UsageError
    /// when the compiler cannot be found or run.
    virtual Catalog discover() = 0;
    /// The flags, environment and files of route on top of the base flags. The route must be
    /// valid for catalog. No value ever becomes a command: values only become argv items.
    virtual AppliedRoute apply(const Route& route, const Catalog& catalog) const = 0;
    /// The compiler's own account of applied (apply's result for route), knob by knob: every
    /// conflict where the compiler would override the route's value. Runs the compiler;
    /// thread-safe; results are cached per flag list. The default: not checked (the compiler
    /// gives no account; docs/gpu-adapters.md says what is checked instead).
    virtual RouteCheck check(const Route& route, const Catalog& catalog, const AppliedRoute& applied) const;
    /// The times (seconds) a run of a built artifact reports on its stdout (e.g. trtexec's
    /// "GPU Compute Time" median), used by [timing] source = "reported" when the run wrote no
    /// {metrics} file; nullopt when this compiler's programs print no time it can read.
    virtual std::optional<std::vector<double>> times_from_output([[maybe_unused]] const std::string& stdout_text) const {
        return std::nullopt;
    }
};

/// A new adapter by name; throws UsageError naming the known adapters for an unknown name.
std::unique_ptr<Adapter> make_adapter(const std::string& name, AdapterOptions options);

/// The names make_adapter accepts.
std::vector<std::string> adapter_names();

}  // namespace routetune
