// The adapter registry: one table with a row per compiler adapter (its name as specs write
// it, its factory, its default compiler and its timing traits). make_adapter, adapter_names,
// spec validation and the command line's help all read this table, so adding an adapter is
// its own file plus one row (and its #include) in adapter_registry.cpp.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "routetune/adapter.hpp"

namespace routetune {

/// One adapter as the registry knows it, before one is made.
struct AdapterEntry {
    std::string_view name;                                 ///< as written in specs ("gcc", ...)
    std::unique_ptr<Adapter> (*make)(AdapterOptions);      ///< builds one over its options
    std::string_view default_compiler;                     ///< "" when it needs none (custom)
    bool times_on_stdout = false;  ///< its runs print a time it reads (Adapter::times_from_output)
    bool builds_vary = false;      ///< two builds of one route may differ in speed (kernel choices by timing):
                                   ///< a confirmation on fresh builds uses kVaryingConfirmBuilds builds per route
};

/// Fresh builds per route in a confirmation for an adapter whose builds vary (the least a spread needs).
inline constexpr int kVaryingConfirmBuilds = 3;

/// Every adapter, in the order specs and messages list them.
std::span<const AdapterEntry> adapter_registry();

/// The row named name, or nullptr.
const AdapterEntry* find_adapter(std::string_view name);

/// The names in registry order joined by separator ("gcc, nvcc, ...").
std::string adapter_list(std::string_view separator);

}  // namespace routetune
