// Computes each chart's series from the summary. The progress curve follows finish order:
// after every finished evaluation, the default's median over the fastest ok median so far
// (1 until the default is timed), each point marked confirmed when that fastest route was
// re-measured in the confirmation (or is the default). Routes answered by a byte-identical
// twin (same_as) were not run, so the route and sample charts leave them out. A route's speedup interval divides the default's median by
// the ends of the route's own 95% interval, so it shows how sure the route's timing is; the
// confirmation's interval is the interleaved bootstrap's. Failures are counted per phase and
// status, ok included, so the chart shows what share of each phase failed.
#include "report/html_chart_data.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/knob_effects.hpp"
#include "report/report_row.hpp"

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

Json interval(const std::string& route, double speedup, double low, double high) {
    return {{"route", route}, {"lines", wrap_route(route)}, {"speedup", finite(speedup)},
            {"low", finite(low)}, {"high", finite(high)}};
}

double default_median(const StudySummary& summary) {
    const auto& d = summary.default_evaluation;
    return d && d->status == Status::Ok && has_timing(d->timing) ? d->timing.median_s : 0;
}

// [build, speedup, confirmed]: confirmed is false while the best so far is a route other than
// the default that the confirmation did not re-measure.
Json progress(const StudySummary& summary, double reference) {
    Json points = Json::array();
    const Evaluation* best = nullptr;
    std::size_t build = 0;
    for (const auto& e : summary.evaluations) {
        if (e.status == Status::Pending) continue;
        ++build;
        if (e.status == Status::Ok && has_timing(e.timing) && e.timing.median_s > 0 &&
            (best == nullptr || e.timing.median_s < best->timing.median_s))
            best = &e;
        double speedup = reference > 0 && best ? reference / best->timing.median_s : 1.0;
        bool at_default = best == nullptr || best->route.empty() || best->same_as == display_route(Route{});
        points.push_back({build, speedup, at_default || confirmation_of(summary, best->route) != nullptr});
    }
    return points;
}

// The measured ok evaluations (same_as ones were not run: their twin is among these), fastest first.
std::vector<const Evaluation*> fastest_ok(const StudySummary& summary) {
    std::vector<const Evaluation*> ok;
    for (const auto& e : summary.evaluations)
        if (e.status == Status::Ok && e.same_as.empty() && has_timing(e.timing) && e.timing.median_s > 0) ok.push_back(&e);
    std::stable_sort(ok.begin(), ok.end(), [](const Evaluation* a, const Evaluation* b) {
        return a->timing.median_s < b->timing.median_s;
    });
    return ok;
}

Json routes(const std::vector<const Evaluation*>& ok, double reference, std::size_t limit) {
    Json out = Json::array();
    if (reference <= 0) return out;
    for (std::size_t i = 0; i < ok.size() && i < limit; ++i) {
        const TimingSummary& t = ok[i]->timing;
        double low = t.ci_high_s > 0 ? reference / t.ci_high_s : NAN;
        double high = t.ci_low_s > 0 ? reference / t.ci_low_s : NAN;
        out.push_back(interval(display_route(ok[i]->route), reference / t.median_s, low, high));
    }
    return out;
}

Json sample_row(const Evaluation& e) {
    Json ms = Json::array();
    for (double s : e.timing.samples_s) ms.push_back(finite(s * 1000));
    return {{"route", display_route(e.route)}, {"lines", wrap_route(display_route(e.route))}, {"ms", ms}};
}

Json samples(const StudySummary& summary, const std::vector<const Evaluation*>& ok, std::size_t limit) {
    Json out = Json::array();
    if (summary.default_evaluation && !summary.default_evaluation->timing.samples_s.empty())
        out.push_back(sample_row(*summary.default_evaluation));
    std::size_t shown = 0;
    for (const Evaluation* e : ok) {
        if (shown == limit) break;
        if (e->route.empty() || e->timing.samples_s.empty()) continue;
        out.push_back(sample_row(*e));
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

Json confirmation(const StudySummary& summary) {
    Json out = Json::array();
    for (const auto& c : summary.confirmations)
        out.push_back(interval(display_route(c.route), c.speedup, c.ci_low, c.ci_high));
    return out;
}

}  // namespace

Json chart_data(const StudySummary& summary, const ChartLimits& limits) {
    double reference = default_median(summary);
    auto ok = fastest_ok(summary);
    return {{"study", summary.study},
            {"search", summary.search},
            {"progress", progress(summary, reference)},
            {"routes", routes(ok, reference, limits.routes)},
            {"samples", samples(summary, ok, limits.samples)},
            {"failures", failures(summary)},
            {"effects", effects(summary, limits.effects)},
            {"confirmation", confirmation(summary)}};
}

}  // namespace routetune
