// libFuzzer target: route expressions over a small fixed catalog (bool, enum and int knobs).
// Bad input must be a UsageError with a bounded, clean message (fuzz_checks.hpp); a parsed
// expression must count its candidates.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "routetune/catalog.hpp"
#include "fuzz_checks.hpp"
#include "routetune/error.hpp"
#include "routetune/expression.hpp"

namespace {

routetune::Catalog fuzz_catalog() {
    routetune::Catalog catalog;
    routetune::Knob flag;
    flag.name = "-funroll-loops";
    flag.type = routetune::KnobType::Bool;
    flag.values = {"on", "off"};
    flag.default_value = "off";
    flag.bounded = true;
    routetune::Knob level;
    level.name = "-O";
    level.type = routetune::KnobType::Enum;
    level.values = {"0", "1", "2", "3", "s"};
    level.default_value = "2";
    level.bounded = true;
    routetune::Knob param;
    param.name = "-param:max-unroll-times";
    param.type = routetune::KnobType::Int;
    param.min = 0;
    param.max = 1 << 20;
    param.bounded = true;
    param.default_value = "8";
    catalog.add(flag);
    catalog.add(level);
    catalog.add(param);
    return catalog;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const routetune::Catalog catalog = fuzz_catalog();
    std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        routetune::Expression expression = routetune::parse_expression(text, catalog, {});
        routetune::count_candidates(expression, routetune::ExpansionMode::Full);
    } catch (const routetune::UsageError& error) {
        routetune::fuzz::check_message(error.what());
    }
    return 0;
}
