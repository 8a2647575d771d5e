// The `custom` adapter: no discovery; the catalog is the declared knobs, validated.
#include "adapters/custom_adapter.hpp"

#include "adapters/declared_knobs.hpp"
#include "util/process.hpp"

namespace routetune {

namespace {

class CustomAdapter final : public Adapter {
public:
    explicit CustomAdapter(AdapterOptions options) : options_(std::move(options)) {}

    std::string name() const override { return "custom"; }

    Catalog discover() override {
        Catalog catalog;
        catalog.compiler.adapter = "custom";
        if (!options_.compiler.empty()) {
            auto path = find_executable(options_.compiler);
            catalog.compiler.path = path.empty() ? options_.compiler : path.string();
        }
        add_declared_knobs(catalog, options_.declared_knobs);
        return catalog;
    }

    AppliedRoute apply(const Route& route, const Catalog& catalog) const override {
        AppliedRoute applied;
        applied.flags = options_.base_flags;
        apply_declared_knobs(route, catalog, applied);
        return applied;
    }

private:
    AdapterOptions options_;
};

}  // namespace

std::unique_ptr<Adapter> make_custom_adapter(AdapterOptions options) {
    return std::make_unique<CustomAdapter>(std::move(options));
}

}  // namespace routetune
