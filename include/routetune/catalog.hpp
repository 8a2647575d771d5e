// A catalog: every knob one compiler offers, with the identity of the compiler it came from.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "routetune/knob.hpp"

namespace routetune {

/// Which compiler a catalog describes; the key of the discovery cache.
struct CompilerIdentity {
    std::string adapter;        ///< "gcc", "nvcc", "inductor", "trtexec", "custom"
    std::string path;           ///< resolved absolute path of the executable ("" if none)
    std::string version;        ///< first line of the compiler's version output
    std::string binary_sha256;  ///< hash of the executable's bytes ("" if none)
};

/// The knobs of one compiler, sorted by name, names unique.
class Catalog {
public:
    CompilerIdentity compiler;

    /// Adds knob, replacing a knob of the same name; keeps the order by name.
    void add(Knob knob);
    /// The knob named name, or nullptr.
    const Knob* find(std::string_view name) const;
    /// All knobs, sorted by name.
    const std::vector<Knob>& knobs() const { return knobs_; }
    /// Up to count known names closest to name (edit distance), best first, for messages.
    std::vector<std::string> closest_names(std::string_view name, std::size_t count = 3) const;

private:
    std::vector<Knob> knobs_;
};

/// The catalog as the `knobs --json` document: {"compiler": {...}, "knobs": [...]}.
std::string catalog_to_json(const Catalog& catalog, int indent = 2);
/// Reads catalog_to_json's output back; throws UsageError on malformed text.
Catalog catalog_from_json(std::string_view text);

}  // namespace routetune
