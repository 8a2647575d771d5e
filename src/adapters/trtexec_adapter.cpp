// The trtexec adapter: discovery runs `trtexec --helpBuildRoute` and reads its knob
// database; the identity's version is "TensorRT <v> tuner <tuner_version>" (the TensorRT
// version from the "[TensorRT v110100]" banner when printed). Applying a route merges it
// over any --setBuildRoute of the base flags and writes one --setBuildRoute argv item. A
// run's reported time is the median "GPU Compute Time" of trtexec's performance summary. The
// catalog is cached under trtexec's path and bytes (trtexec is rebuilt with each TensorRT).
#include "adapters/trtexec_adapter.hpp"

#include <regex>

#include "adapters/tool_runner.hpp"
#include "adapters/trtexec_catalog_parser.hpp"
#include "adapters/declared_knobs.hpp"

namespace routetune {

namespace {

constexpr std::string_view set_route_prefix = "--setBuildRoute=";

std::string tensorrt_version(const std::string& text) {
    static const std::regex banner(R"(\[TensorRT v([0-9]+)\])");
    std::smatch match;
    return std::regex_search(text, match, banner) ? match[1].str() : "";
}

class TrtexecAdapter final : public Adapter {
public:
    explicit TrtexecAdapter(AdapterOptions options) : options_(std::move(options)) {}

    std::string name() const override { return "trtexec"; }

    Catalog discover() override {
        auto trtexec = require_tool("trtexec", options_.compiler);
        CompilerIdentity identity = identify_tool("trtexec", trtexec, "");
        return discover_with_cache(options_, identity, "trtexec-discovery-1", [&] {
            std::string text = run_tool_for_text("trtexec", {trtexec.string(), "--helpBuildRoute"});
            TrtexecKnobDatabase database = parse_trtexec_build_route_help(text);
            std::string version = tensorrt_version(text);
            Catalog catalog;
            catalog.compiler = identity;
            catalog.compiler.version =
                (version.empty() ? "" : "TensorRT v" + version + " ") + "tuner " + database.tuner_version;
            for (auto& knob : database.knobs) catalog.add(std::move(knob));
            return catalog;
        });
    }

    AppliedRoute apply(const Route& route, const Catalog& catalog) const override {
        return apply_trtexec_route(options_.base_flags, route, catalog);
    }

    std::optional<std::vector<double>> times_from_output(const std::string& stdout_text) const override {
        auto median_ms = parse_trtexec_gpu_time(stdout_text);
        if (!median_ms) return std::nullopt;
        return std::vector<double>{*median_ms / 1000.0};
    }

private:
    AdapterOptions options_;
};

}  // namespace

AppliedRoute apply_trtexec_route(const std::vector<std::string>& base, const Route& route, const Catalog& catalog) {
    AppliedRoute applied;
    Route merged;
    for (const auto& flag : base) {
        if (flag.rfind(set_route_prefix, 0) == 0) {
            Route base_route = Route::parse(std::string_view(flag).substr(set_route_prefix.size()));
            for (const auto& [name, value] : base_route.assignments()) merged.set(name, value);
        } else {
            applied.flags.push_back(flag);
        }
    }
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        if (knob != nullptr && is_declared_knob(*knob)) continue;
        merged.set(name, value);
    }
    if (!merged.empty()) applied.flags.push_back(std::string(set_route_prefix) + merged.to_string());
    apply_declared_knobs(route, catalog, applied);
    return applied;
}

std::unique_ptr<Adapter> make_trtexec_adapter(AdapterOptions options) {
    return std::make_unique<TrtexecAdapter>(std::move(options));
}

}  // namespace routetune
