// Running the compiler to learn what this machine's CPU can run and what each -march value
// needs, then marking the catalog's values the CPU cannot run (host_isa.hpp). GCC says it in
// `-march=X -Q --help=target`, Clang in the feature macros of `-march=X -dM -E`.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "adapters/catalog_cache.hpp"
#include "adapters/host_isa.hpp"
#include "routetune/catalog.hpp"

namespace routetune {

/// What a host-ISA pass did.
struct HostIsaOutcome {
    std::size_t left_out = 0;       ///< values marked left out of `~`
    std::size_t compiler_runs = 0;  ///< compiler runs (1, the native one, when the table was cached)
    std::string skipped;            ///< why nothing was marked ("" when the filter ran)
};

/// The ISA switches the compiler enables with `-march=VALUE` ("native" included), and what
/// native resolves to where it says; nullopt when it will not say (an I/O boundary; must be
/// thread-safe).
using IsaOfCpu = std::function<std::optional<HostIsa>(const std::string& march)>;

/// Marks (Knob::left_out) the values of catalog that this machine's CPU cannot run: the
/// host's switches from enabled_at("native"), asked every time (it is this machine's, not
/// the compiler's, so it never enters the cache); each -march value's from enabled_at(value),
/// kept in cache under table_key (none: not kept) and asked only for values the cached table
/// lacks. No isa_switches, or no answer (or an empty one) for native, marks nothing.
HostIsaOutcome apply_host_isa(Catalog& catalog, const std::set<std::string>& isa_switches, const IsaOfCpu& enabled_at,
                              const CatalogCache* cache, const std::string& table_key);

/// apply_host_isa for the GCC of identity (`-march=X -Q --help=target`; ISA switches from
/// the help, gcc_isa_switches).
HostIsaOutcome apply_gcc_host_isa(Catalog& catalog, const CompilerIdentity& identity, const CatalogCache* cache);

/// apply_host_isa for the Clang of identity (`-march=X -dM -E`; an ISA switch is a Bool -m
/// knob whose feature macro, clang_feature_macro, discovery saw).
HostIsaOutcome apply_clang_host_isa(Catalog& catalog, const CompilerIdentity& identity, const CatalogCache* cache);

}  // namespace routetune
