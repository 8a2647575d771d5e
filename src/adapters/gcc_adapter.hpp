// The GCC adapter (gcc, g++, cc, gcc-13, ...): discovers its optimizer flags, params and
// target options from the compiler itself and turns routes into GCC flags.
#pragma once

#include <cstddef>
#include <memory>

#include "adapters/gcc_probe.hpp"
#include "adapters/host_isa_probe.hpp"
#include "adapters/route_checker.hpp"
#include "routetune/adapter.hpp"

namespace routetune {

/// Part of the catalog cache key; bumped whenever parsing or probing changes what a catalog
/// holds, so entries written by older code are missed.
inline constexpr const char* gcc_discovery_version = "gcc-discovery-7";

/// One GCC executable with the spec's base flags.
class GccAdapter : public Adapter {
public:
    /// An adapter for options.compiler (make_adapter fills in "gcc"); nothing runs until discover().
    explicit GccAdapter(AdapterOptions options);

    /// "gcc".
    std::string name() const override { return "gcc"; }
    /// The catalog: from the cache when an entry for this compiler and these base flags
    /// exists, else by running `-Q --help=...` and probing, then stored in the cache; then,
    /// with host_isa_only, what this machine's CPU cannot run is left out of `~`.
    Catalog discover() override;
    /// The base flags overridden by the route's flags; declared knobs with an env name go to
    /// the environment.
    AppliedRoute apply(const Route& route, const Catalog& catalog) const override;
    /// GCC's own account (`-Q --help=optimizers --help=params --help=target` over the final
    /// flags, gcc_route_check.hpp) of every knob of the route but declared ones.
    RouteCheck check(const Route& route, const Catalog& catalog, const AppliedRoute& applied) const override;

    /// How many discover() calls ran the compiler (were not served from the cache).
    std::size_t fresh_discoveries() const { return fresh_discoveries_; }
    /// What the last fresh discovery's probing did.
    const ProbeReport& last_probe() const { return last_probe_; }
    /// What the last discover() left out of `~` for this machine's CPU (nothing when
    /// host_isa_only is false).
    const HostIsaOutcome& last_host_isa() const { return last_host_isa_; }

private:
    Catalog discover_fresh(const CompilerIdentity& identity);

    AdapterOptions options_;
    std::size_t fresh_discoveries_ = 0;
    ProbeReport last_probe_;
    HostIsaOutcome last_host_isa_;
    std::shared_ptr<RouteCheckCache> checks_ = std::make_shared<RouteCheckCache>();
};

/// A GccAdapter as an Adapter (the registry's factory).
std::unique_ptr<Adapter> make_gcc_adapter(AdapterOptions options);

}  // namespace routetune
