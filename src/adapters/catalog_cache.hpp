// The catalog cache shared by every adapter: a discovered catalog is stored as its
// `knobs --json` document under a key made of everything the catalog depends on (adapter,
// resolved compiler path, version, hash of the compiler's bytes, base flags), so a changed or
// upgraded compiler, or other base flags, are discovered afresh.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "routetune/catalog.hpp"

namespace routetune {

/// The identity of the executable program for adapter: resolved on PATH (absolute), its version (first
/// line of `program version_args...` output) and the SHA-256 of its bytes. Throws UsageError
/// "compiler 'program' not found on PATH (set [compiler] path or --compiler)" when missing.
CompilerIdentity identify_compiler(const std::string& adapter, const std::string& program,
                                   const std::vector<std::string>& version_args = {"--version"});

/// $XDG_CACHE_HOME/routetune/catalogs, else $HOME/.cache/routetune/catalogs, else a folder
/// under the system temporary folder.
std::filesystem::path default_catalog_cache_dir();

/// Catalogs on disk, one JSON file per key, in one folder.
class CatalogCache {
public:
    /// A cache in dir (default_catalog_cache_dir() when empty); the folder is created on store.
    explicit CatalogCache(std::filesystem::path dir = {});

    /// The hex key of a catalog of compiler discovered with base_flags; extra names anything
    /// else the discovery depends on (e.g. the adapter's parser version).
    static std::string key(const CompilerIdentity& compiler, const std::vector<std::string>& base_flags,
                           const std::string& extra = {});

    /// The catalog stored under key; nullopt when absent, unreadable or corrupt (a corrupt
    /// entry is then simply overwritten by the next store).
    std::optional<Catalog> load(const std::string& key) const;

    /// Stores catalog under key atomically; returns false (and leaves no partial file) when
    /// the folder is not writable: a cache that cannot be written only costs time.
    bool store(const std::string& key, const Catalog& catalog) const;

    /// Another document an adapter keeps beside its catalogs (e.g. the ISA of each -march
    /// value), stored under key; nullopt when absent or unreadable.
    std::optional<std::string> load_text(const std::string& key) const;

    /// Stores text under key atomically; false when the folder is not writable.
    bool store_text(const std::string& key, const std::string& text) const;

    /// The file that holds key's catalog.
    std::filesystem::path file_of(const std::string& key) const;

    /// The cache folder.
    const std::filesystem::path& dir() const { return dir_; }

private:
    std::filesystem::path dir_;
};

}  // namespace routetune
