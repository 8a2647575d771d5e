// What this machine's CPU can run, in a compiler's own words, and the catalog values it
// cannot: ISA switches it lacks (`-mavx512f`) and -march values that need them. Pure: the
// adapters run the compiler and feed the texts in (host_isa_probe.cpp).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "routetune/catalog.hpp"

namespace routetune {

/// The ISA switches each -march value enables: a property of the compiler alone, so it is
/// cached with the compiler's identity.
struct CpuIsaTable {
    std::map<std::string, std::set<std::string>> enables;  ///< -march value -> its switches
    std::set<std::string> unknown;  ///< values the compiler would not say it of (its run failed)

    /// True when value is in enables or unknown.
    bool knows(const std::string& value) const { return enables.count(value) != 0 || unknown.count(value) != 0; }
};

/// The ISA switches a CPU has; for this machine's, those `-march=native` enables.
struct HostIsa {
    std::string cpu;                ///< the CPU's name, e.g. what native resolves to ("znver3"); "" when not said
    std::set<std::string> enabled;  ///< e.g. "-mavx2", "-msse4.2"
};

/// The -m switches a `gcc -Q --help=target` output prints as [enabled].
std::set<std::string> gcc_enabled_switches(std::string_view q_help_target);

/// The value a `gcc -Q --help=target` output prints for -march ("znver3"); "" when none.
std::string gcc_march_value(std::string_view q_help_target);

/// GCC's instruction-set switches among catalog's knobs: the Bool `-m` knobs whose help
/// begins "Support " (GCC's x86 help says so of every ISA extension switch, e.g. "-mavx2
/// Support MMX, SSE, ... and AVX2 built-in functions and code generation.").
std::set<std::string> gcc_isa_switches(const Catalog& catalog);

/// The table as JSON text, for the catalog cache.
std::string cpu_isa_table_to_json(const CpuIsaTable& table);

/// cpu_isa_table_to_json's text back; nullopt when it is malformed.
std::optional<CpuIsaTable> cpu_isa_table_from_json(std::string_view text);

/// Sets Knob::left_out on catalog (replacing what was there for these knobs): each switch of
/// isa_switches that host lacks leaves out "on"; each -march value whose entry in table
/// enables a switch of isa_switches that host lacks, other than those GCC emits only through
/// their built-in functions (-mhle, -msgx, -mmwaitx, ...), leaves out itself, the reason
/// naming those switches (values without an entry, and native, stay). Returns the count.
std::size_t leave_out_host_unrunnable(Catalog& catalog, const std::set<std::string>& isa_switches,
                                      const HostIsa& host, const CpuIsaTable& table);

}  // namespace routetune
