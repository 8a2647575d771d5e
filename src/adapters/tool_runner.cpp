// Discovery helpers shared by the nvcc, trtexec and inductor adapters: every run is an argv
// array with a timeout; failures become UsageErrors that say which tool and why.
#include "adapters/tool_runner.hpp"

#include "adapters/catalog_cache.hpp"
#include "adapters/declared_knobs.hpp"
#include "routetune/error.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/text.hpp"

namespace routetune {

namespace {

std::string first_line(std::string_view text) {
    std::string trimmed(trim(text));
    return trimmed.substr(0, trimmed.find('\n'));
}

}  // namespace

std::filesystem::path require_tool(const std::string& adapter, const std::string& program) {
    auto path = find_executable(program);
    if (path.empty()) {
        throw UsageError(adapter + " adapter: '" + program +
                         "' was not found or is not executable (set [compiler] path in the spec, "
                         "or --compiler, to the tool's path)");
    }
    return path;
}

std::string run_tool_for_text(const std::string& adapter, const std::vector<std::string>& argv) {
    ProcessSpec spec;
    spec.argv = argv;
    spec.timeout_s = 60;
    spec.output_cap = 16 << 20;
    ProcessResult result = run_process(spec);
    std::string command;
    for (const auto& arg : argv) command += (command.empty() ? "" : " ") + arg;
    if (result.outcome == ProcessOutcome::SpawnFailed) {
        throw UsageError(adapter + " adapter: cannot run '" + command + "': " + result.error);
    }
    if (!result.succeeded()) {
        std::string why = result.outcome == ProcessOutcome::TimedOut ? "timed out"
                          : result.outcome == ProcessOutcome::Signaled
                              ? "died of signal " + std::to_string(result.signal)
                              : "exited with " + std::to_string(result.exit_code);
        std::string detail = first_line(result.err.empty() ? result.out : result.err);
        throw UsageError(adapter + " adapter: '" + command + "' " + why + (detail.empty() ? "" : ": " + detail));
    }
    return result.out + result.err;
}

std::string version_line(std::string_view text, std::string_view marker) {
    std::size_t pos = 0;
    std::string fallback;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string line(trim(text.substr(pos, end - pos)));
        if (!line.empty()) {
            if (!marker.empty() && line.find(marker) != std::string::npos) return line;
            if (fallback.empty()) fallback = line;
        }
        pos = end + 1;
    }
    return fallback;
}

CompilerIdentity identify_tool(const std::string& adapter, const std::filesystem::path& path, std::string version) {
    CompilerIdentity identity;
    identity.adapter = adapter;
    identity.path = path.string();
    identity.version = std::move(version);
    identity.binary_sha256 = sha256_file(path).value_or("");
    return identity;
}

Catalog discover_with_cache(const AdapterOptions& options, const CompilerIdentity& identity, const std::string& extra,
                            const std::function<Catalog()>& fresh) {
    CatalogCache cache(options.cache_dir);
    std::string key = CatalogCache::key(identity, {}, extra);
    std::optional<Catalog> catalog;
    if (options.use_cache) catalog = cache.load(key);
    if (!catalog || catalog->compiler.path != identity.path ||
        catalog->compiler.binary_sha256 != identity.binary_sha256) {
        catalog = fresh();
        if (options.use_cache) cache.store(key, *catalog);
    }
    add_declared_knobs(*catalog, options.declared_knobs);
    return *catalog;
}

}  // namespace routetune
