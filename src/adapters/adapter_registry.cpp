// The adapter registry: a table of name → factory, default compiler and timing traits.
// make_adapter fills in the default compiler, so adapters never name their own default.
#include "adapters/adapter_registry.hpp"

#include <algorithm>

#include "adapters/clang_adapter.hpp"
#include "adapters/custom_adapter.hpp"
#include "adapters/gcc_adapter.hpp"
#include "adapters/inductor_adapter.hpp"
#include "adapters/nvcc_adapter.hpp"
#include "adapters/trtexec_adapter.hpp"
#include "routetune/error.hpp"

namespace routetune {

namespace {

const AdapterEntry kAdapters[] = {
    {"gcc", make_gcc_adapter, "gcc"},
    {"clang", make_clang_adapter, "clang"},
    {"nvcc", make_nvcc_adapter, "nvcc"},
    {"trtexec", make_trtexec_adapter, "trtexec", true, true},
    {"inductor", make_inductor_adapter, "python3", false, true},
    {"custom", make_custom_adapter, ""},
};

}  // namespace

std::span<const AdapterEntry> adapter_registry() { return kAdapters; }

const AdapterEntry* find_adapter(std::string_view name) {
    for (const auto& entry : kAdapters)
        if (entry.name == name) return &entry;
    return nullptr;
}

std::string adapter_list(std::string_view separator) {
    std::string list;
    for (const auto& entry : kAdapters) list += (list.empty() ? "" : std::string(separator)) + std::string(entry.name);
    return list;
}

std::unique_ptr<Adapter> make_adapter(const std::string& name, AdapterOptions options) {
    if (const AdapterEntry* entry = find_adapter(name)) {
        if (options.compiler.empty()) options.compiler = entry->default_compiler;
        return entry->make(std::move(options));
    }
    std::string known;
    for (const auto& adapter : adapter_names()) known += (known.empty() ? "" : ", ") + adapter;
    throw UsageError("unknown adapter '" + name + "' (known adapters: " + known +
                     "; g++, cc and gcc-13 are compilers of the gcc adapter: set [compiler] path)");
}

std::vector<std::string> adapter_names() {
    std::vector<std::string> names;
    for (const auto& entry : kAdapters) names.emplace_back(entry.name);
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace routetune
