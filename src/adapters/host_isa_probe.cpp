// The host's ISA is one compiler run (`-march=native`, about 10 ms), done at every discovery
// because a catalog cache may be shared by machines with other CPUs. The table of what each
// -march value enables is a property of the compiler alone: one run per value (about 60 for
// GCC 12 on x86-64, 100 for Clang 14; four at a time), cached beside the catalogs under the
// compiler's identity, and only computed when the compiler has ISA switches at all; values a
// cached table lacks (another catalog's, e.g. with -m32) are added to it. A value whose run
// fails is recorded as unknown and stays in `~`.
#include "adapters/host_isa_probe.hpp"

#include <future>
#include <map>
#include <mutex>
#include <vector>

#include "adapters/clang_defaults.hpp"
#include "adapters/clang_llvm_flags.hpp"
#include "adapters/compiler_runner.hpp"
#include "adapters/host_isa.hpp"

namespace routetune {

namespace {

constexpr std::size_t kParallelRuns = 4;

const char* const gcc_table_version = "gcc-cpu-isa-1";
const char* const clang_table_version = "clang-cpu-isa-1";

// Adds to table the -march values of catalog it does not know yet; true when it added any.
bool complete_table(CpuIsaTable& table, const Catalog& catalog, const IsaOfCpu& enabled_at, HostIsaOutcome& outcome) {
    const Knob* march = catalog.find("-march");
    if (march == nullptr) return false;
    std::vector<std::string> missing;
    for (const auto& value : march->values) {
        if (value != "native" && !table.knows(value)) missing.push_back(value);
    }
    std::mutex guard;
    std::vector<std::future<void>> runs;
    for (std::size_t w = 0; w < kParallelRuns; ++w) {
        runs.push_back(std::async(std::launch::async, [&, w] {
            for (std::size_t i = w; i < missing.size(); i += kParallelRuns) {
                auto isa = enabled_at(missing[i]);
                std::lock_guard lock(guard);
                if (isa) {
                    table.enables[missing[i]] = std::move(isa->enabled);
                } else {
                    table.unknown.insert(missing[i]);
                }
            }
        }));
    }
    for (auto& run : runs) run.get();
    outcome.compiler_runs += missing.size();
    return !missing.empty();
}

}  // namespace

HostIsaOutcome apply_host_isa(Catalog& catalog, const std::set<std::string>& isa_switches, const IsaOfCpu& enabled_at,
                              const CatalogCache* cache, const std::string& table_key) {
    HostIsaOutcome outcome;
    if (isa_switches.empty()) {
        outcome.skipped = "the compiler names no instruction-set switches";
        return outcome;
    }
    ++outcome.compiler_runs;
    auto native = enabled_at("native");
    if (!native || native->enabled.empty()) {
        // Every x86-64 CPU has SSE2: an empty answer is a compiler that cannot tell, not a CPU.
        outcome.skipped = "the compiler would not say what -march=native enables";
        return outcome;
    }
    CpuIsaTable table;
    if (cache) {
        if (auto text = cache->load_text(table_key)) table = cpu_isa_table_from_json(*text).value_or(CpuIsaTable{});
    }
    if (complete_table(table, catalog, enabled_at, outcome) && cache) cache->store_text(table_key, cpu_isa_table_to_json(table));
    outcome.left_out = leave_out_host_unrunnable(catalog, isa_switches, *native, table);
    return outcome;
}

HostIsaOutcome apply_gcc_host_isa(Catalog& catalog, const CompilerIdentity& identity, const CatalogCache* cache) {
    ScratchFolder scratch("routetune-host-isa-");
    IsaOfCpu enabled_at = [&](const std::string& march) -> std::optional<HostIsa> {
        auto result = run_compiler(identity, {"-march=" + march, "-Q", "--help=target"}, scratch.path);
        if (!result.succeeded()) return std::nullopt;
        return HostIsa{gcc_march_value(result.out), gcc_enabled_switches(result.out)};
    };
    return apply_host_isa(catalog, gcc_isa_switches(catalog), enabled_at, cache,
                          CatalogCache::key(identity, {}, gcc_table_version));
}

HostIsaOutcome apply_clang_host_isa(Catalog& catalog, const CompilerIdentity& identity, const CatalogCache* cache) {
    std::map<std::string, std::string> by_macro;  // __AVX2__ -> -mavx2
    std::set<std::string> switches;
    for (const auto& knob : catalog.knobs()) {
        bool driver_switch = knob.name.starts_with("-m") && !knob.name.starts_with(kMllvmKnobPrefix);
        bool isa = knob.type == KnobType::Bool && driver_switch && !knob.default_value.empty();
        if (!isa) continue;
        by_macro[clang_feature_macro(knob.name)] = knob.name;
        switches.insert(knob.name);
    }
    ScratchFolder scratch("routetune-host-isa-");
    IsaOfCpu enabled_at = [&](const std::string& march) -> std::optional<HostIsa> {
        auto result = run_compiler(identity, {"-march=" + march, "-dM", "-E", "-x", "c", "/dev/null"}, scratch.path);
        if (!result.succeeded()) return std::nullopt;
        HostIsa isa;
        for (const auto& macro : defined_macros(result.out)) {
            if (auto found = by_macro.find(macro); found != by_macro.end()) isa.enabled.insert(found->second);
        }
        return isa;
    };
    return apply_host_isa(catalog, switches, enabled_at, cache, CatalogCache::key(identity, {}, clang_table_version));
}

}  // namespace routetune
