// `routetune expand` over a catalog: parse the expression (text or file), stream candidates
// from expand() up to the limit, and print them as text lines or one JSON document. Only the
// printed candidates are ever built, so `--count` or `--limit` on a space of 10^300
// candidates returns at once.
#include "report/expand_report.hpp"

#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

#include "report/left_out_note.hpp"
#include "routetune/error.hpp"
#include "routetune/strategy.hpp"
#include "search/strategy_registry.hpp"
#include "util/output_schema.hpp"

namespace routetune {

namespace {

// The expansion a mode lists: its own for fast, full and mixed; the whole space (full) for a
// strategy that picks its candidates from results.
ExpansionMode listed_expansion(const std::string& mode, bool* adaptive) {
    const StrategyEntry* entry = find_strategy(mode);
    if (!entry)
        throw UsageError("unknown search mode '" + mode + "' (valid: " + strategy_list(", ", false) + ")");
    *adaptive = !entry->expansion;
    return entry->expansion.value_or(ExpansionMode::Full);
}

}  // namespace

nlohmann::ordered_json count_number(const BigCount& count) {
    if (count.fits_u64()) return count.to_u64();
    std::string digits = count.to_string();
    if (digits.size() > 300) return nullptr;
    return std::stod(digits);
}

BigCount mixed_phase_two_bound(const Expression& expression, int max_knobs) {
    std::vector<std::uint64_t> sizes;
    for (const auto& axis : expression.axes) {
        if (!axis.fixed()) sizes.push_back(axis.full_choices());
    }
    if (sizes.empty() || max_knobs < 1) return BigCount(0);
    std::sort(sizes.begin(), sizes.end(), std::greater<>());
    BigCount bound(1);
    for (std::size_t i = 0; i < sizes.size() && i < static_cast<std::size_t>(max_knobs); ++i) bound *= sizes[i];
    return bound;
}

int run_expand(const Catalog& catalog, const ExpandRequest& request, std::ostream& out) {
    bool adaptive = false;
    ExpansionMode mode = listed_expansion(request.mode, &adaptive);
    ExpressionOptions options;
    options.include_unsafe = request.include_unsafe;
    options.source = request.routes_source;
    Expression expression = request.routes_file.empty() ? parse_expression(request.routes, catalog, options)
                                                        : parse_expression_file(request.routes_file, catalog, options);
    BigCount count = count_candidates(expression, mode);
    std::optional<BigCount> bound;
    if (mode == ExpansionMode::Mixed) bound = mixed_phase_two_bound(expression, request.mixed_max_knobs);

    if (request.notes) {
        write_left_out_notes(*request.notes, expression, catalog);
        if (adaptive)
            *request.notes << "routetune: search " << request.mode << " picks its candidates from the results as it goes; "
                           << "these are the " << count.to_string() << " routes of the space it searches\n";
    }
    nlohmann::ordered_json doc;
    if (request.json) {
        doc["mode"] = request.mode;
        doc["adaptive"] = adaptive;
        doc["expression"] = expression.text;
        doc["count"] = count_number(count);
        doc["count_exact"] = count.to_string();
        if (bound) {
            doc["phase_two_bound"] = count_number(*bound);
            doc["phase_two_bound_exact"] = bound->to_string();
        }
        for (const auto& entry : expression.left_out)
            doc["left_out"].push_back({{"knob", entry.knob}, {"value", entry.value}, {"reason", entry.reason}});
    }
    if (request.count_only) {
        if (request.json) {
            out << versioned_json_text(doc);
        } else {
            out << count.to_string() << "\n";
        }
        return 0;
    }
    auto stream = expand(expression, mode);
    std::uint64_t printed = 0;
    nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
    while (!request.limit || printed < *request.limit) {
        auto route = stream->next();
        if (!route) break;
        ++printed;
        if (request.json) {
            candidates.push_back(route->to_string());
        } else {
            out << (route->empty() ? "(default)" : route->to_string()) << "\n";
        }
    }
    if (request.json) {
        doc["candidates"] = std::move(candidates);
        out << versioned_json_text(doc);
    } else if (bound) {
        out << "phase two: at most " << bound->to_string() << " candidates\n";
    }
    return 0;
}

}  // namespace routetune
