// The Clang adapter (clang, clang++, clang-14, ...): its catalog comes from the compiler it is
// pointed at: -O levels, the -f switches clang honours, target CPUs and features, and LLVM
// options reached through -mllvm (knobs `-mllvm:NAME`).
#pragma once

#include <cstddef>
#include <memory>

#include "adapters/gcc_probe.hpp"
#include "adapters/route_checker.hpp"
#include "routetune/adapter.hpp"

namespace routetune {

/// Part of the catalog cache key; bumped whenever discovery changes what a catalog holds.
inline constexpr const char* clang_discovery_version = "clang-discovery-3";

/// One Clang executable with the spec's base flags.
class ClangAdapter : public Adapter {
public:
    /// An adapter for options.compiler (make_adapter fills in "clang"); nothing runs until discover().
    explicit ClangAdapter(AdapterOptions options);

    /// "clang".
    std::string name() const override { return "clang"; }
    /// The catalog: from the cache for this compiler and these base flags, else discovered
    /// (clang_adapter.cpp) and stored.
    Catalog discover() override;
    /// The base flags overridden by the route's flags (`-mllvm:NAME=V` → `-mllvm -NAME=V`, a
    /// base `-mllvm -NAME=...` pair for the same option dropped); declared knobs with an env
    /// name go to the environment.
    AppliedRoute apply(const Route& route, const Catalog& catalog) const override;
    /// Clang's own account (the cc1 line of `-###` over the final flags, and feature macros
    /// for ISA switches: clang_route_check.hpp) of every knob of the route but declared ones.
    RouteCheck check(const Route& route, const Catalog& catalog, const AppliedRoute& applied) const override;

    /// How many discover() calls ran the compiler (were not served from the cache).
    std::size_t fresh_discoveries() const { return fresh_discoveries_; }
    /// What the last fresh discovery's probing did.
    const ProbeReport& last_probe() const { return last_probe_; }

private:
    Catalog discover_fresh(const CompilerIdentity& identity);

    AdapterOptions options_;
    std::size_t fresh_discoveries_ = 0;
    ProbeReport last_probe_;
    std::shared_ptr<RouteCheckCache> checks_ = std::make_shared<RouteCheckCache>();
};

/// A ClangAdapter as an Adapter (the registry's factory).
std::unique_ptr<Adapter> make_clang_adapter(AdapterOptions options);

}  // namespace routetune
