// Several processes give each figure as its range over them; a process replaced mid-study has no
// last measurement of the default and gives none.
#include "report/warm_note.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <vector>

#include "report/figure_format.hpp"

namespace routetune {
namespace {

// "0.311 s", or "0.29-0.35 s" where the processes' figures differ.
std::string seconds_range(const std::vector<double>& values) {
    auto [low, high] = std::minmax_element(values.begin(), values.end());
    char text[64];
    if (*low == *high) std::snprintf(text, sizeof text, "%.3g s", *high);
    else std::snprintf(text, sizeof text, "%.3g-%.3g s", *low, *high);
    return text;
}

// "; N builds, each one code hash (ran: PATH COUNT; ...); K said why ... (ROUTE: FIRST REASON)",
// or "" without code identities.
std::string builds_clause(const std::vector<CodeIdentity>& identities) {
    if (identities.empty()) return "";
    std::map<std::string, std::size_t> by_path;
    for (const auto& c : identities)
        for (const auto& path : c.paths) ++by_path[path];
    std::string text = "; " + std::to_string(identities.size()) + " builds, each one code hash";
    std::string paths;
    for (const auto& [path, count] : by_path) paths += (paths.empty() ? "" : "; ") + one_line(path) + " " + std::to_string(count);
    if (!paths.empty()) text += " (ran: " + paths + ")";
    const CodeIdentity* first_said = nullptr;
    std::size_t said = 0;
    for (const auto& c : identities) {
        if (c.why.empty()) continue;
        ++said;
        if (!first_said) first_said = &c;
    }
    if (first_said) {
        std::string route = first_said->route.empty() ? "the default" : first_said->route.to_string();
        text += "; " + std::to_string(said) + (said == 1 ? " said why it ran so (" : " said why they ran so (") +
                truncate_display(one_line(route + ": " + first_said->why.front()), 160) +
                (said > 1 ? "; the others in the JSON" : "") + ")";
    }
    return text;
}

}  // namespace

std::string warm_measurement_text(const StudySummary& summary) {
    const auto& processes = summary.warm_processes;
    if (processes.empty()) return "";
    std::size_t runs = 0, replaced = 0;
    std::string first_replacement;
    std::vector<double> medians, longest;
    const WarmProcessReport* widest = nullptr;
    double widest_change = -1;
    for (const auto& p : processes) {
        runs += p.runs;
        if (p.ended != "closed") {
            if (replaced++ == 0) first_replacement = p.ended;
        }
        if (p.request_median_s) medians.push_back(*p.request_median_s);
        if (p.request_max_s) longest.push_back(*p.request_max_s);
        if (p.default_first_s && p.default_last_s && *p.default_first_s > 0) {
            double change = std::abs(*p.default_last_s / *p.default_first_s - 1);
            if (change > widest_change) widest_change = change, widest = &p;
        }
    }
    std::string text = std::to_string(processes.size()) + (processes.size() == 1 ? " process, " : " processes, ") +
                       std::to_string(runs) + " runs";
    if (replaced > 0) text += ", " + std::to_string(replaced) + " replaced (" + one_line(first_replacement) + ")";
    if (!medians.empty()) {
        text += "; a request " + seconds_range(medians) + " median";
        if (!longest.empty()) text += ", " + seconds_range({*std::max_element(longest.begin(), longest.end())}) + " at most";
    }
    if (widest) {
        text += "; the default " + format_ms(*widest->default_first_s) + " ms first, " + format_ms(*widest->default_last_s) +
                " ms last (" + format_percent(widest_change) + " apart" +
                (processes.size() > 1 ? std::string(", the widest of its processes") : std::string()) + ")";
    }
    text += builds_clause(summary.code_identities);
    return text;
}

}  // namespace routetune
