// The adapter registry: a table of name → factory. Adding a compiler is one line in
// `factories` plus its factory's declaration.
#include <algorithm>

#include "adapters/clang_adapter.hpp"
#include "adapters/custom_adapter.hpp"
#include "adapters/gcc_adapter.hpp"
#include "adapters/inductor_adapter.hpp"
#include "adapters/nvcc_adapter.hpp"
#include "adapters/trtexec_adapter.hpp"
#include "routetune/adapter.hpp"
#include "routetune/error.hpp"

namespace routetune {

namespace {

using Factory = std::unique_ptr<Adapter> (*)(AdapterOptions);

struct Entry {
    const char* name;
    Factory make;
};

const Entry factories[] = {
    {"clang", make_clang_adapter},
    {"custom", make_custom_adapter},
    {"gcc", make_gcc_adapter},
    {"inductor", make_inductor_adapter},
    {"nvcc", make_nvcc_adapter},
    {"trtexec", make_trtexec_adapter},
};

}  // namespace

std::unique_ptr<Adapter> make_adapter(const std::string& name, AdapterOptions options) {
    for (const auto& entry : factories) {
        if (name == entry.name) return entry.make(std::move(options));
    }
    std::string known;
    for (const auto& adapter : adapter_names()) known += (known.empty() ? "" : ", ") + adapter;
    throw UsageError("unknown adapter '" + name + "' (known adapters: " + known +
                     "; g++, cc and gcc-13 are compilers of the gcc adapter: set [compiler] path)");
}

std::vector<std::string> adapter_names() {
    std::vector<std::string> names;
    for (const auto& entry : factories) names.emplace_back(entry.name);
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace routetune
