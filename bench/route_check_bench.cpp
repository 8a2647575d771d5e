// The route check's cost per candidate (Adapter::check, docs/route-syntax.md): every route of
// a full product is applied and checked once by a fresh adapter (nothing cached: each route
// is a new flag list, as in a study), then checked again (served by the adapter's cache).
// Prints the median per candidate with its 95% interval, min and max, for both passes, and
// how many candidates were route_conflict.
// Usage: route_check_bench ADAPTER EXPRESSION [BASE FLAGS...]   (base default: -O2)
//   e.g. route_check_bench gcc "-O=[1|2|3] -march=[x86-64|native] -funroll-loops=[on|off]"
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/expression.hpp"
#include "util/statistics.hpp"

namespace {

using namespace routetune;

void print(const char* what, const std::vector<double>& seconds) {
    if (seconds.empty()) return;
    Interval ci = median_ci95(seconds);
    double lo = seconds.front(), hi = seconds.front();
    for (double s : seconds) lo = std::min(lo, s), hi = std::max(hi, s);
    std::printf("%-7s n=%zu  median %7.2f ms [%.2f, %.2f]  min %7.2f ms  max %7.2f ms\n", what, seconds.size(),
                median(seconds) * 1e3, ci.low * 1e3, ci.high * 1e3, lo * 1e3, hi * 1e3);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: route_check_bench ADAPTER EXPRESSION [BASE FLAGS...]\n");
        return 2;
    }
    AdapterOptions options;
    for (int i = 3; i < argc; ++i) options.base_flags.push_back(argv[i]);
    if (options.base_flags.empty()) options.base_flags = {"-O2"};
    auto adapter = make_adapter(argv[1], options);
    Catalog catalog = adapter->discover();
    ExpressionOptions expression_options;
    expression_options.include_unsafe = true;
    Expression expression = parse_expression(argv[2], catalog, expression_options);
    std::vector<Route> routes;
    auto stream = expand(expression, ExpansionMode::Full);
    while (auto route = stream->next()) {
        if (!route->empty()) routes.push_back(*route);
    }
    std::vector<double> cold, cached;
    std::size_t conflicts = 0, unchecked = 0;
    for (const auto& route : routes) {
        AppliedRoute applied = adapter->apply(route, catalog);
        auto start = std::chrono::steady_clock::now();
        RouteCheck check = adapter->check(route, catalog, applied);
        cold.push_back(seconds_since(start));
        conflicts += check.conflicts.empty() ? 0 : 1;
        unchecked += check.checked ? 0 : 1;
    }
    for (const auto& route : routes) {
        AppliedRoute applied = adapter->apply(route, catalog);
        auto start = std::chrono::steady_clock::now();
        adapter->check(route, catalog, applied);
        cached.push_back(seconds_since(start));
    }
    std::printf("%s, %zu routes of %s: %zu route_conflict, %zu not checked\n", argv[1], routes.size(), argv[2],
                conflicts, unchecked);
    print("cold", cold);
    print("cached", cached);
    return 0;
}
