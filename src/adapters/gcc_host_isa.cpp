// The host's ISA is one compiler run (`-march=native -Q --help=target`, about 10 ms), done
// at every discovery because a catalog cache may be shared by machines with other CPUs. The
// table of what each -march value enables is a property of the compiler alone: one run per
// value (about 60 for GCC 12 on x86-64, under a second), cached beside the catalogs under the
// compiler's identity, and only computed when the help names ISA switches at all; values a
// cached table lacks (another catalog's, e.g. with -m32) are added to it. A value whose run
// fails is recorded as unknown and stays in `~`.
#include "adapters/gcc_host_isa.hpp"

#include <filesystem>
#include <optional>

#include "adapters/compiler_runner.hpp"
#include "adapters/host_isa.hpp"

namespace routetune {

namespace {

std::optional<std::string> target_states(const CompilerIdentity& identity, const std::string& march,
                                         const std::filesystem::path& cwd) {
    auto result = run_compiler(identity, {"-march=" + march, "-Q", "--help=target"}, cwd);
    if (!result.succeeded()) return std::nullopt;
    return result.out;
}

// Adds to table the -march values of catalog it does not know yet; true when it added any.
bool complete_table(CpuIsaTable& table, const Catalog& catalog, const CompilerIdentity& identity,
                    const std::filesystem::path& cwd, HostIsaOutcome& outcome) {
    const Knob* march = catalog.find("-march");
    if (march == nullptr) return false;
    bool added = false;
    for (const auto& value : march->values) {
        if (value == "native" || table.knows(value)) continue;
        ++outcome.compiler_runs;
        added = true;
        if (auto text = target_states(identity, value, cwd)) {
            table.enables[value] = gcc_enabled_switches(*text);
        } else {
            table.unknown.insert(value);
        }
    }
    return added;
}

}  // namespace

HostIsaOutcome apply_gcc_host_isa(Catalog& catalog, const CompilerIdentity& identity, const CatalogCache* cache) {
    HostIsaOutcome outcome;
    auto switches = gcc_isa_switches(catalog);
    if (switches.empty()) {
        outcome.skipped = "the compiler's target help names no instruction-set switches";
        return outcome;
    }
    ScratchFolder scratch("routetune-host-isa-");
    ++outcome.compiler_runs;
    auto native = target_states(identity, "native", scratch.path);
    if (!native) {
        outcome.skipped = "-march=native -Q --help=target failed";
        return outcome;
    }
    HostIsa host{gcc_march_value(*native), gcc_enabled_switches(*native)};
    std::string key = CatalogCache::key(identity, {}, gcc_cpu_isa_version);
    CpuIsaTable table;
    if (cache) {
        if (auto text = cache->load_text(key)) table = cpu_isa_table_from_json(*text).value_or(CpuIsaTable{});
    }
    if (complete_table(table, catalog, identity, scratch.path, outcome) && cache) {
        cache->store_text(key, cpu_isa_table_to_json(table));
    }
    outcome.left_out = leave_out_host_unrunnable(catalog, switches, host, table);
    return outcome;
}

}  // namespace routetune
