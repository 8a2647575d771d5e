// Computes each chart's series from the summary. Every search-phase speedup and interval is
// report_row's speedup_vs_default (paired with the default's runs when measured so), the figure
// the tables show. The progress curve follows finish order: after every finished evaluation, the
// best speedup so far (1 until a route is timed against a timed default), each point marked
// confirmed when that best route was re-measured in the confirmation (or no route beats the
// default yet). Routes answered by a byte-identical twin (same_as) were not run, so the curve and
// the route and sample charts leave them out; the confirmation's interval is the interleaved
// bootstrap's. Failures are counted per phase and
// status, ok included, so the chart shows what share of each phase failed. A route is labelled
// by its changes from the default route (route_changes_text), its full text beside for tooltips.
#include "report/html_chart_data.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/knob_effects.hpp"
#include "report/report_row.hpp"
#include "report/route_changes.hpp"

namespace routetune {

using Json = nlohmann::json;

std::vector<std::string> wrap_route(const std::string& route, std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    std::size_t start = 0;
    while (start < route.size()) {
        std::size_t end = route.find(' ', start);
        if (end == std::string::npos) end = route.size();
        std::string token = route.substr(start, end - start);
        start = end + 1;
        if (token.empty()) continue;
        if (!line.empty() && line.size() + 1 + token.size() > width) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + token;
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

namespace {

Json finite(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

// route: the route's changes from the default (its label), full: every assignment (its tooltip).
Json interval(const Route& route, const DefaultRoute& base, double speedup, double low, double high) {
    std::string shown = route_changes_text(route, base);
    return {{"route", shown}, {"full", display_route(route)}, {"lines", wrap_route(shown)}, {"speedup", finite(speedup)},
            {"low", finite(low)}, {"high", finite(high)}};
}

// An ok evaluation with its search-phase speedup against the default.
struct Ranked {
    const Evaluation* evaluation;
    SpeedupFigure speedup;
};

std::optional<SpeedupFigure> search_speedup(const StudySummary& summary, const Evaluation& e) {
    const auto& d = summary.default_evaluation;
    if (!d || d->status != Status::Ok || e.status != Status::Ok) return std::nullopt;
    return speedup_vs_default(e, summary);
}

// [build, speedup, confirmed]: confirmed is false while the best so far is a route other than
// the default that the confirmation did not re-measure.
Json progress(const StudySummary& summary) {
    Json points = Json::array();
    const Evaluation* best = nullptr;
    double best_speedup = 1.0;
    std::size_t build = 0;
    for (const auto& e : summary.evaluations) {
        if (e.status == Status::Pending) continue;
        ++build;
        auto speedup = e.route.empty() || !e.same_as.empty() ? std::nullopt : search_speedup(summary, e);
        if (speedup && speedup->value > best_speedup) {  // the default (1) is the best until a route beats it
            best = &e;
            best_speedup = speedup->value;
        }
        points.push_back({build, best ? best_speedup : 1.0, best == nullptr || confirmation_of(summary, best->route) != nullptr});
    }
    return points;
}

// [finish order, route's changes, status, speedup or null, same_as, full route]: every finished
// evaluation in the order it finished, the per-trial view; a failure has no speedup, a twin shows its twin's.
Json trials(const StudySummary& summary, const DefaultRoute& base) {
    Json out = Json::array();
    std::size_t n = 0;
    for (const auto& e : summary.evaluations) {
        if (e.status == Status::Pending) continue;
        auto speedup = e.route.empty() ? std::nullopt : search_speedup(summary, e);
        Json figure = speedup ? finite(speedup->value) : Json(nullptr);
        if (e.route.empty() && e.status == Status::Ok) figure = 1.0;  // the default is the yardstick
        out.push_back({++n, route_changes_text(e.route, base), std::string(to_string(e.status)), figure, e.same_as,
                       display_route(e.route)});
    }
    return out;
}

// The measured ok evaluations with their speedups (same_as ones were not run: their twin is
// among these), highest speedup first.
std::vector<Ranked> fastest_ok(const StudySummary& summary) {
    std::vector<Ranked> ok;
    for (const auto& e : summary.evaluations)
        if (auto speedup = e.same_as.empty() ? search_speedup(summary, e) : std::nullopt) ok.push_back({&e, *speedup});
    std::stable_sort(ok.begin(), ok.end(), [](const Ranked& a, const Ranked& b) { return a.speedup.value > b.speedup.value; });
    return ok;
}

Json routes(const std::vector<Ranked>& ok, const DefaultRoute& base, std::size_t limit) {
    Json out = Json::array();
    for (std::size_t i = 0; i < ok.size() && i < limit; ++i) {
        const SpeedupFigure& s = ok[i].speedup;
        out.push_back(interval(ok[i].evaluation->route, base, s.value, s.ci95 ? s.ci95->first : NAN,
                               s.ci95 ? s.ci95->second : NAN));
    }
    return out;
}

Json sample_row(const Evaluation& e, const DefaultRoute& base) {
    Json ms = Json::array();
    for (double s : e.timing.samples_s) ms.push_back(finite(s * 1000));
    std::string shown = route_changes_text(e.route, base);
    return {{"route", shown}, {"lines", wrap_route(shown)}, {"ms", ms}};
}

Json samples(const StudySummary& summary, const std::vector<Ranked>& ok, const DefaultRoute& base, std::size_t limit) {
    Json out = Json::array();
    if (summary.default_evaluation && !summary.default_evaluation->timing.samples_s.empty())
        out.push_back(sample_row(*summary.default_evaluation, base));
    std::size_t shown = 0;
    for (const Ranked& ranked : ok) {
        const Evaluation* e = ranked.evaluation;
        if (shown == limit) break;
        if (e->route.empty() || e->timing.samples_s.empty()) continue;
        out.push_back(sample_row(*e, base));
        ++shown;
    }
    return out;
}

Json failures(const StudySummary& summary) {
    std::vector<std::string> phases;
    std::map<std::pair<std::string, Status>, std::size_t> counts;
    for (const auto& e : summary.evaluations) {
        std::string phase = e.phase.empty() ? "(none)" : e.phase;
        if (std::find(phases.begin(), phases.end(), phase) == phases.end()) phases.push_back(phase);
        ++counts[{phase, e.status}];
    }
    Json statuses = Json::array();
    for (Status status : report_status_order()) {
        Json per_phase = Json::array();
        std::size_t total = 0;
        for (const auto& phase : phases) {
            auto it = counts.find({phase, status});
            std::size_t n = it == counts.end() ? 0 : it->second;
            per_phase.push_back(n);
            total += n;
        }
        if (total > 0) statuses.push_back({{"status", std::string(to_string(status))}, {"counts", per_phase}});
    }
    return {{"phases", phases}, {"statuses", statuses}};
}

Json effects(const StudySummary& summary, std::size_t limit) {
    Json out = Json::array();
    for (const auto& e : knob_effects(summary, limit)) {
        out.push_back({{"label", e.knob + "=" + e.value}, {"speedup", finite(e.speedup)},
                       {"low", finite(e.low)}, {"high", finite(e.high)}, {"routes", e.routes}});
    }
    return out;
}

Json confirmation(const StudySummary& summary, const DefaultRoute& base) {
    Json out = Json::array();
    for (const auto& c : summary.confirmations) out.push_back(interval(c.route, base, c.speedup, c.ci_low, c.ci_high));
    return out;
}

}  // namespace

Json chart_data(const StudySummary& summary, const ChartLimits& limits) {
    auto ok = fastest_ok(summary);
    DefaultRoute base = default_route_of(summary);
    return {{"study", summary.study},
            {"search", summary.search},
            {"progress", progress(summary)},
            {"trials", trials(summary, base)},
            {"routes", routes(ok, base, limits.routes)},
            {"samples", samples(summary, ok, base, limits.samples)},
            {"failures", failures(summary)},
            {"effects", effects(summary, limits.effects)},
            {"confirmation", confirmation(summary, base)}};
}

}  // namespace routetune
