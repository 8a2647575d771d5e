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
