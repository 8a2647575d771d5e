// What routetune's C++ API offers a program of its own: open an adapter, discover the
// compiler's knobs, parse and validate a route, print it canonically, turn it into the argv a
// build needs, and expand a route expression into candidates.
//
// usage: route_flags [COMPILER]     (default gcc)
#include <iostream>

#include <routetune/adapter.hpp>
#include <routetune/error.hpp>
#include <routetune/expression.hpp>
#include <routetune/route.hpp>

int main(int argc, char** argv) {
    using namespace routetune;
    try {
        AdapterOptions options;
        options.compiler = argc > 1 ? argv[1] : "gcc";
        options.base_flags = {"-O2"};
        auto adapter = make_adapter("gcc", options);
        Catalog catalog = adapter->discover();
        std::cout << catalog.knobs().size() << " knobs in " << catalog.compiler.version << "\n";
        if (const Knob* unroll = catalog.find("-funroll-loops")) {
            std::cout << "-funroll-loops: " << unroll->allowed_text() << ", default " << unroll->default_value << "\n";
        }

        Route route = Route::parse("-funroll-loops=on -O=3 -param:max-unroll-times=16");
        validate_route(route, catalog);
        std::cout << "route: " << route.to_string() << " (hash " << route.hash() << ")\n";
        std::cout << "argv:";
        for (const auto& flag : adapter->apply(route, catalog).flags) std::cout << " " << flag;
        std::cout << "\n";

        Expression expression = parse_expression("-O=[2|3] -funroll-loops=[on|off] -march=[x86-64|native]", catalog);
        std::cout << "full search: " << count_candidates(expression, ExpansionMode::Full).to_string() << " candidates\n";
        auto candidates = expand(expression, ExpansionMode::Fast);
        while (auto candidate = candidates->next()) {
            std::cout << "  " << (candidate->empty() ? "(default)" : candidate->to_string()) << "\n";
        }
        return 0;
    } catch (const UsageError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
