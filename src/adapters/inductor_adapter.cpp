// The inductor adapter. Discovery: the torch version comes from importlib.metadata (cheap,
// no torch import) and keys the catalog cache together with the Python executable and the
// helper's bytes; a fresh discovery runs `<python> <helper> --dump-config` and parses it.
#include "adapters/inductor_adapter.hpp"

#include <cstdlib>
#include <system_error>

#include "adapters/inductor_config_parser.hpp"
#include "adapters/tool_runner.hpp"
#include "adapters/declared_knobs.hpp"
#include "routetune/error.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace {

namespace fs = std::filesystem;

constexpr const char* helper_name = "routetune_inductor.py";
constexpr const char* torch_version_code =
    "import importlib.metadata as m; print(m.version('torch'))";

bool is_file(const fs::path& path) {
    std::error_code error;
    return fs::is_regular_file(path, error);
}

class InductorAdapter final : public Adapter {
public:
    explicit InductorAdapter(AdapterOptions options) : options_(std::move(options)) {}

    std::string name() const override { return "inductor"; }

    Catalog discover() override {
        auto python = require_tool("inductor", options_.compiler);
        fs::path helper = inductor_helper_path();
        if (helper.empty()) {
            throw UsageError(std::string("inductor adapter: the helper ") + helper_name +
                             " was not found (set ROUTETUNE_INDUCTOR_HELPER to its path)");
        }
        std::string torch = version_line(run_tool_for_text("inductor", {python.string(), "-c", torch_version_code}));
        CompilerIdentity identity = identify_tool("inductor", python, "torch " + torch);
        std::string extra = "inductor-discovery-1 " + sha256_file(helper).value_or("");
        return discover_with_cache(options_, identity, extra, [&] {
            std::string dump = run_tool_for_text("inductor", {python.string(), helper.string(), "--dump-config"});
            InductorConfig config = parse_inductor_config_dump(dump);
            Catalog catalog;
            catalog.compiler = identity;
            for (auto& knob : config.knobs) catalog.add(std::move(knob));
            return catalog;
        });
    }

    AppliedRoute apply(const Route& route, const Catalog& catalog) const override {
        return apply_inductor_route(options_.base_flags, route, catalog);
    }

private:
    AdapterOptions options_;
};

}  // namespace

fs::path inductor_helper_path() {
    if (const char* env = std::getenv("ROUTETUNE_INDUCTOR_HELPER"); env != nullptr && *env != '\0') {
        return is_file(env) ? fs::path(env) : fs::path();
    }
    std::error_code error;
    fs::path exe_dir = fs::read_symlink("/proc/self/exe", error).parent_path();
    if (!error) {
        for (const fs::path& relative : {fs::path("../share/routetune"), fs::path("../python"), fs::path("../../python")}) {
            fs::path candidate = exe_dir / relative / helper_name;
            if (is_file(candidate)) return fs::weakly_canonical(candidate, error);
        }
    }
#ifdef ROUTETUNE_PYTHON_DIR
    if (fs::path candidate = fs::path(ROUTETUNE_PYTHON_DIR) / helper_name; is_file(candidate)) return candidate;
#endif
    return {};
}

AppliedRoute apply_inductor_route(const std::vector<std::string>& base, const Route& route, const Catalog& catalog) {
    AppliedRoute applied;
    Route merged;
    for (const auto& flag : base) {
        std::size_t equals = flag.find('=');
        if (flag.rfind(inductor_knob_prefix, 0) == 0 && equals != std::string::npos) {
            merged.set(flag.substr(0, equals), flag.substr(equals + 1));
        } else {
            applied.flags.push_back(flag);
        }
    }
    for (const auto& [name, value] : route.assignments()) {
        const Knob* knob = catalog.find(name);
        if (knob != nullptr && is_declared_knob(*knob)) continue;
        if (name.rfind(inductor_knob_prefix, 0) == 0) merged.set(name, value);
    }
    applied.environment["ROUTETUNE_INDUCTOR_ROUTE"] = merged.to_string();
    if (fs::path helper = inductor_helper_path(); !helper.empty()) {
        applied.environment["ROUTETUNE_PYTHON_DIR"] = helper.parent_path().string();
    }
    apply_declared_knobs(route, catalog, applied);
    return applied;
}

std::unique_ptr<Adapter> make_inductor_adapter(AdapterOptions options) {
    return std::make_unique<InductorAdapter>(std::move(options));
}

}  // namespace routetune
