// The nvcc adapter: discovery runs `nvcc --help`, `nvcc --version` and `ptxas --help`
// (ptxas beside nvcc, else on PATH), keeps the options of nvcc_knob_table() that this
// toolkit lists, and takes their allowed values and defaults from the help text, falling
// back to the table where the text prints none. The catalog is cached under the identity of
// nvcc (path, version, bytes); declared knobs are added after the cache.
#include "adapters/nvcc_adapter.hpp"

#include <algorithm>

#include "adapters/nvcc_help_parser.hpp"
#include "adapters/nvcc_knob_table.hpp"
#include "adapters/tool_runner.hpp"
#include "util/process.hpp"

namespace routetune {

namespace {

std::string bool_value(const std::string& help_default, const std::string& fallback) {
    if (help_default == "true") return "on";
    if (help_default == "false") return "off";
    return fallback;
}

Knob make_knob(const NvccKnobSpec& spec, const NvccHelpOption& option) {
    Knob knob;
    knob.name = spec.knob;
    knob.type = spec.type;
    knob.help = option.help;
    if (!spec.note.empty()) knob.help += (knob.help.empty() ? "" : " ") + std::string("[") + spec.note + "]";
    knob.tags.push_back(spec.ptxas ? "ptxas" : "nvcc");
    if (spec.unsafe) knob.tags.push_back("unsafe");
    switch (spec.type) {
        case KnobType::Bool:
            knob.values = {"on", "off"};
            knob.default_value = spec.form == NvccForm::TrueFalse ? bool_value(option.default_value, spec.default_value)
                                                                  : spec.default_value;
            break;
        case KnobType::Enum:
            knob.values = option.values.empty() ? spec.values : option.values;
            knob.default_value = spec.default_value;
            if (!option.default_value.empty() &&
                std::find(knob.values.begin(), knob.values.end(), option.default_value) != knob.values.end()) {
                knob.default_value = option.default_value;
            }
            break;
        case KnobType::Int:
            knob.min = option.min.value_or(spec.min);
            knob.max = option.max.value_or(spec.max);
            knob.default_value = spec.default_value;
            if (!option.default_value.empty() && knob.allows(option.default_value)) {
                knob.default_value = option.default_value;
            }
            break;
    }
    return knob;
}

class NvccAdapter final : public Adapter {
public:
    explicit NvccAdapter(AdapterOptions options) : options_(std::move(options)) {}

    std::string name() const override { return "nvcc"; }

    Catalog discover() override {
        auto nvcc = require_tool("nvcc", options_.compiler);
        std::string version = run_tool_for_text("nvcc", {nvcc.string(), "--version"});
        CompilerIdentity identity = identify_tool("nvcc", nvcc, version_line(version, "release"));
        return discover_with_cache(options_, identity, "nvcc-discovery-1", [&] {
            std::string help = run_tool_for_text("nvcc", {nvcc.string(), "--help"});
            std::string ptxas_help;
            auto ptxas = nvcc.parent_path() / "ptxas";
            if (find_executable(ptxas.string()).empty()) ptxas = find_executable("ptxas");
            if (!ptxas.empty()) ptxas_help = run_tool_for_text("nvcc", {ptxas.string(), "--help"});
            Catalog catalog = build_nvcc_catalog(help, ptxas_help);
            catalog.compiler = identity;
            return catalog;
        });
    }

    AppliedRoute apply(const Route& route, const Catalog& catalog) const override {
        return apply_nvcc_route(options_.base_flags, route, catalog);
    }

private:
    AdapterOptions options_;
};

}  // namespace

Catalog build_nvcc_catalog(std::string_view nvcc_help, std::string_view ptxas_help) {
    auto nvcc_options = parse_nvcc_help(nvcc_help);
    auto ptxas_options = parse_nvcc_help(ptxas_help);
    Catalog catalog;
    for (const auto& spec : nvcc_knob_table()) {
        const auto* option = find_help_option(spec.ptxas ? ptxas_options : nvcc_options, spec.long_name);
        if (option == nullptr) continue;
        catalog.add(make_knob(spec, *option));
    }
    return catalog;
}

std::unique_ptr<Adapter> make_nvcc_adapter(AdapterOptions options) {
    return std::make_unique<NvccAdapter>(std::move(options));
}

}  // namespace routetune
