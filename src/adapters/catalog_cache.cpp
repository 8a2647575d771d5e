// The catalog cache: the key is the SHA-256 of a canonical text listing the adapter, the
// compiler's path, version and binary hash, each base flag, and the adapter's extra text, one
// per line, so no two different inputs share a key. Entries are written with the atomic
// write of util/files (temporary file + rename); a reader that finds a file it cannot parse
// treats it as a miss, and the next store replaces it.
#include "adapters/catalog_cache.hpp"

#include <cstdlib>

#include "routetune/error.hpp"
#include "util/bounded_read.hpp"
#include "util/files.hpp"
#include "util/process.hpp"
#include "util/remembered_run.hpp"
#include "util/sha256.hpp"

namespace routetune {

CompilerIdentity identify_compiler(const std::string& adapter, const std::string& program,
                                   const std::vector<std::string>& version_args) {
    auto resolved = find_executable(program);
    if (program.empty() || resolved.empty()) {
        throw UsageError("compiler '" + program + "' not found on PATH (set [compiler] path or --compiler)");
    }
    std::error_code error;
    auto absolute = std::filesystem::absolute(resolved, error);
    CompilerIdentity identity{adapter, (error ? resolved : absolute).lexically_normal().string(), "", ""};
    ProcessSpec spec;
    spec.argv = {identity.path};
    spec.argv.insert(spec.argv.end(), version_args.begin(), version_args.end());
    spec.env.emplace("LC_ALL", "C");
    spec.timeout_s = 60;
    auto result = run_process(spec);
    if (!result.succeeded()) {
        throw UsageError("compiler '" + program + "' (" + identity.path + ") could not be run: " +
                         (result.error.empty() ? tail_of(result.err, 400) : result.error));
    }
    remember_run(spec, result);  // the fingerprint asks the same right after (eval/fingerprint)
    std::string text = result.out.empty() ? result.err : result.out;
    identity.version = text.substr(0, text.find('\n'));
    identity.binary_sha256 = sha256_file(resolved).value_or("");
    return identity;
}

std::filesystem::path default_catalog_cache_dir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg) return std::filesystem::path(xdg) / "routetune" / "catalogs";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::filesystem::path(home) / ".cache" / "routetune" / "catalogs";
    return std::filesystem::temp_directory_path() / "routetune-catalogs";
}

CatalogCache::CatalogCache(std::filesystem::path dir)
    : dir_(dir.empty() ? default_catalog_cache_dir() : std::move(dir)) {}

std::string CatalogCache::key(const CompilerIdentity& compiler, const std::vector<std::string>& base_flags,
                              const std::string& extra) {
    std::string text = "adapter " + compiler.adapter + "\npath " + compiler.path + "\nversion " +
                       compiler.version + "\nsha256 " + compiler.binary_sha256 + "\nextra " + extra + "\n";
    for (const auto& flag : base_flags) text += "base " + flag + "\n";
    return compiler.adapter + "-" + sha256_hex(text).substr(0, 32);
}

std::filesystem::path CatalogCache::file_of(const std::string& key) const { return dir_ / (key + ".json"); }

std::optional<Catalog> CatalogCache::load(const std::string& key) const {
    auto text = load_text(key);
    if (!text) return std::nullopt;
    try {
        return catalog_from_json(*text);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

bool CatalogCache::store(const std::string& key, const Catalog& catalog) const {
    return store_text(key, catalog_to_json(catalog));
}

std::optional<std::string> CatalogCache::load_text(const std::string& key) const {
    return read_bounded(file_of(key), kMaxCatalogBytes, "cached catalog").bytes;
}

bool CatalogCache::store_text(const std::string& key, const std::string& text) const {
    std::error_code error;
    std::filesystem::create_directories(dir_, error);
    if (error) return false;
    return write_file(file_of(key), text);
}

}  // namespace routetune
