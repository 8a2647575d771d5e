#include "gcc_landscape/gcc_landscape.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "adapters/gcc_help_parser.hpp"
#include "routetune/catalog.hpp"

namespace routetune {

namespace {

std::string read_fixture(const std::string& name) {
    std::ifstream in(gcc12_fixtures() + "/" + name, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + gcc12_fixtures() + "/" + name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

std::string gcc12_fixtures() { return std::string(ROUTETUNE_SOURCE_DIR) + "/tests/fixtures/gcc12"; }

const Catalog& gcc12_catalog() {
    static const Catalog catalog = [] {
        Catalog parsed;
        for (auto& knob : parse_gcc_optimizers(read_fixture("optimizers-O2.txt"))) parsed.add(knob);
        for (auto& knob : parse_gcc_params(read_fixture("params.txt"))) parsed.add(knob);
        for (auto& knob : parse_gcc_target(read_fixture("target.txt"))) parsed.add(knob);
        parsed.add(make_gcc_opt_level_knob({"-O2"}));
        return parsed;
    }();
    return catalog;
}

const Expression& gcc12_star_tilde() {
    static const Expression expression = parse_expression("*=~", gcc12_catalog());
    return expression;
}

bool is_gcc_kind(const std::string& kind) { return kind == "gcc" || kind == "gcc-thin" || kind == "gcc-doors"; }

SyntheticLandscape gcc_landscape(const std::string& kind, std::uint64_t seed, double interval_spread) {
    LandscapeOptions options =
        kind == "gcc-doors" ? LandscapeOptions::gcc_doors(seed) : LandscapeOptions::gcc(seed, kind == "gcc-thin");
    options.interval_spread = interval_spread;
    return SyntheticLandscape(options, gcc12_star_tilde());
}

}  // namespace routetune
