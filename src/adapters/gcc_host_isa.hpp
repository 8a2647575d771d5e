// Running GCC to learn what this machine's CPU can run and what each -march value needs, then
// marking the catalog's values the CPU cannot run (host_isa.hpp).
#pragma once

#include <cstddef>
#include <string>

#include "adapters/catalog_cache.hpp"
#include "routetune/catalog.hpp"

namespace routetune {

/// Part of the key of the cached -march table; bumped when what the table holds changes.
inline constexpr const char* gcc_cpu_isa_version = "gcc-cpu-isa-1";

/// What apply_gcc_host_isa did.
struct HostIsaOutcome {
    std::size_t left_out = 0;    ///< values marked left out of `~`
    std::size_t compiler_runs = 0;  ///< `-Q --help=target` runs (1 when the table was cached)
    std::string skipped;         ///< why nothing was marked ("" when the filter ran)
};

/// Marks (Knob::left_out) the ISA values of catalog that this machine's CPU cannot run, for
/// the GCC of identity: the host's switches from `-march=native -Q --help=target`, run every
/// time (it is this machine's, not the compiler's, so it never enters the cache); each -march
/// value's from `-march=VALUE -Q --help=target`, kept in cache (none: not kept). A compiler
/// without ISA switches in its help, or whose -march=native fails, marks nothing.
HostIsaOutcome apply_gcc_host_isa(Catalog& catalog, const CompilerIdentity& identity, const CatalogCache* cache);

}  // namespace routetune
