// The host-ISA filter. GCC says what a CPU enables in `-march=X -Q --help=target`: one line
// per switch, "  -mavx2   [enabled]". Which switches are instruction sets is told by their
// help ("Support ... built-in functions and code generation"), not by a list kept here, so a
// newer GCC's new extensions are covered. `-march=native` gives the host's set (GCC's own
// CPUID detection, which also checks that the OS saves the AVX and AVX-512 state), the table
// gives every other -march value's. A switch the host lacks keeps only "off" in `~`; a
// -march value that enables a switch the host lacks is left out of `~` whole, unless GCC emits
// that switch's instructions only through its built-in functions (the list below). Nothing
// is removed from the catalog: written explicitly, every value is still allowed. Clang's
// answers (feature macros, host_isa_probe.cpp) are turned into the same switch names, so the
// rule is one for both compilers.
#include "adapters/host_isa.hpp"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "util/text.hpp"

namespace routetune {

namespace {

constexpr std::size_t kNamedSwitches = 6;

// Judgement, not parsing: instruction sets whose instructions GCC emits only where a program
// calls their built-in functions (system, tracing, cache-control, random-number, key-locker,
// user-interrupt and transactional instructions), and HLE, whose XACQUIRE/XRELEASE prefixes
// CPUs without it ignore; and AVX512-VP2INTERSECT, whose pair-of-masks result only its
// built-ins produce (GCC 12's -march=sapphirerapids enables it; the Xeons GCC 13 calls
// sapphirerapids lack it). An -march value that enables them still runs ordinary code on a
// CPU without them (-march=skylake on an AMD CPU: HLE, SGX), so they do not make an -march
// value left out. The switches themselves still lose "on" where the host lacks them: alone
// they change only the built-in functions, so such a build is wasted or dies.
constexpr std::string_view builtin_only_isa[] = {
    "-mavx512vp2intersect", "-mcldemote", "-mclflushopt", "-mclwb",    "-mclzero",    "-menqcmd", "-mfsgsbase", "-mfxsr",    "-mhle",
    "-mhreset",   "-mkl",         "-mlwp",     "-mmovdir64b", "-mmovdiri", "-mmwait",   "-mmwaitx",  "-mpconfig",
    "-mpku",      "-mptwrite",    "-mrdpid",   "-mrdrnd",     "-mrdseed", "-mrtm",      "-mserialize", "-msgx",
    "-mtsxldtrk", "-muintr",      "-mwaitpkg", "-mwbnoinvd",  "-mwidekl", "-mxsave",    "-mxsavec",  "-mxsaveopt",
    "-mxsaves",
};

bool builtin_only(const std::string& name) {
    return std::find(std::begin(builtin_only_isa), std::end(builtin_only_isa), name) != std::end(builtin_only_isa);
}

// "-mavx512f -mavx512cd and 3 more": the first few names of switches.
std::string name_some(const std::vector<std::string>& names) {
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < kNamedSwitches; ++i) text += (i == 0 ? "" : " ") + names[i];
    if (names.size() > kNamedSwitches) text += " and " + std::to_string(names.size() - kNamedSwitches) + " more";
    return text;
}

}  // namespace

std::set<std::string> gcc_enabled_switches(std::string_view q_help_target) {
    std::set<std::string> enabled;
    for (auto line : split_lines(q_help_target)) {
        if (!line.starts_with("  -m")) continue;
        auto words = split_words(line);
        if (words.size() == 2 && words[1] == "[enabled]") enabled.insert(words[0]);
    }
    return enabled;
}

std::string gcc_march_value(std::string_view q_help_target) {
    for (auto line : split_lines(q_help_target)) {
        auto words = split_words(line);
        if (words.size() == 2 && words[0] == "-march=") return words[1];
    }
    return {};
}

std::set<std::string> gcc_isa_switches(const Catalog& catalog) {
    std::set<std::string> switches;
    for (const auto& knob : catalog.knobs()) {
        bool bool_target = knob.type == KnobType::Bool && knob.name.starts_with("-m") && knob.has_tag("target");
        if (bool_target && knob.help.starts_with("Support ")) switches.insert(knob.name);
    }
    return switches;
}

std::string cpu_isa_table_to_json(const CpuIsaTable& table) {
    nlohmann::json doc;
    doc["cpu_isa_table"] = 1;
    doc["cpus"] = nlohmann::json::object();
    for (const auto& [cpu, switches] : table.enables) doc["cpus"][cpu] = switches;
    doc["unknown"] = table.unknown;
    return doc.dump(1);
}

std::optional<CpuIsaTable> cpu_isa_table_from_json(std::string_view text) {
    try {
        auto doc = nlohmann::json::parse(text);
        if (doc.value("cpu_isa_table", 0) != 1) return std::nullopt;
        CpuIsaTable table;
        for (const auto& [cpu, switches] : doc.at("cpus").items()) table.enables[cpu] = switches.get<std::set<std::string>>();
        table.unknown = doc.value("unknown", std::set<std::string>{});
        return table;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

std::size_t leave_out_host_unrunnable(Catalog& catalog, const std::set<std::string>& isa_switches,
                                      const HostIsa& host, const CpuIsaTable& table) {
    std::size_t left_out = 0;
    std::string host_name = host.cpu.empty() ? "this machine's CPU" : "this machine's CPU (" + host.cpu + ")";
    for (const auto& name : isa_switches) {
        const Knob* found = catalog.find(name);
        if (found == nullptr) continue;
        Knob knob = *found;
        knob.left_out.clear();
        if (host.enabled.count(name) == 0 && knob.allows("on")) {
            knob.left_out.push_back({"on", host_name + " lacks it (-march=native leaves it off)"});
            ++left_out;
        }
        catalog.add(std::move(knob));
    }
    const Knob* march = catalog.find("-march");
    if (march == nullptr) return left_out;
    Knob knob = *march;
    knob.left_out.clear();
    for (const auto& value : knob.values) {
        auto entry = table.enables.find(value);
        if (value == "native" || entry == table.enables.end()) continue;
        std::vector<std::string> missing;
        for (const auto& name : entry->second) {
            bool lacking = isa_switches.count(name) != 0 && host.enabled.count(name) == 0;
            if (lacking && !builtin_only(name)) missing.push_back(name);
        }
        if (missing.empty()) continue;
        knob.left_out.push_back({value, "needs " + name_some(missing) + ", which " + host_name + " lacks"});
        ++left_out;
    }
    catalog.add(std::move(knob));
    return left_out;
}

}  // namespace routetune
