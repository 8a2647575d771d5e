// Writes the HTML of one study's section and of the comparison. Every string from a study
// passes through escape_html; only this file's fixed markup is raw. A chart is only a
// <canvas> here (the page's script draws it from the JSON data); its box is sized from the
// number of rows and wrapped label lines, so whole routes fit. Routes show their changes from
// the default route (route_changes_text); a route cell's title holds the whole route.
#include "report/html_sections.hpp"

#include <algorithm>
#include <cstdio>

#include "report/html_chart_data.hpp"
#include "report/knob_effects.hpp"
#include "report/report_row.hpp"
#include "report/route_changes.hpp"

namespace routetune {

std::string html_cell(std::string_view text, std::string_view css) {
    std::string open = css.empty() ? "<td>" : "<td class=\"" + std::string(css) + "\">";
    return open + escape_html(text) + "</td>";
}

std::string html_route_cell(std::string_view route, std::string_view full) {
    std::string out = "<td class=\"route\"";
    if (!full.empty() && full != route)
        out += " title=\"" + escape_html(full) + "\" data-route=\"" + escape_html(full) + "\"";
    out += ">";
    if (route == kNoChanges) return out + "<span class=\"tok\">" + escape_html(route) + "</span></td>";
    bool first = true;
    for (std::size_t start = 0; start < route.size();) {
        std::size_t end = std::min(route.find(' ', start), route.size());
        if (end > start) {
            out += std::string(first ? "" : " ") + "<span class=\"tok\">" + escape_html(route.substr(start, end - start)) +
                   "</span>";
            first = false;
        }
        start = end + 1;
    }
    return out + "</td>";
}

std::string html_chart(std::string_view kind, std::size_t index, int height_px, std::string_view heading,
                       std::string_view caption) {
    std::string id = "chart-" + std::to_string(index) + "-" + std::string(kind);
    return "<h3>" + escape_html(heading) + "</h3>\n<div class=\"chart\" style=\"height:" +
           std::to_string(height_px) + "px\"><canvas id=\"" + id + "\" data-chart=\"" + std::string(kind) +
           "\" data-study=\"" + std::to_string(index) + "\" role=\"img\" aria-label=\"" + escape_html(heading) +
           "\"></canvas></div>\n<p class=\"caption\">" + escape_html(caption) + "</p>\n";
}

namespace {

std::string row_class(Status status) {
    if (status == Status::Ok) return "ok";
    if (status == Status::Pending) return "pending";
    return "fail";
}

int rows_height(const std::vector<std::string>& routes, int per_row) {
    int lines = 0;
    for (const auto& route : routes) lines += static_cast<int>(wrap_route(route).size());
    return 70 + lines * 13 + static_cast<int>(routes.size()) * per_row;
}

std::string interval_text(double value, double low, double high) {
    return format_speedup(value) + " [" + format_speedup(low) + ", " + format_speedup(high) + "]";
}

std::string header_table(const StudySummary& summary) {
    std::string out = "<table>\n";
    for (const auto& field : report_header(summary))
        out += "<tr><th>" + escape_html(field.label) + "</th>" + html_cell(field.value) + "</tr>\n";
    out += "<tr><th>artifacts kept</th>" + html_cell(format_bytes(summary.artifact_bytes) + artifact_split_text(summary)) + "</tr>\n";
    return out + "</table>\n";
}

std::string charts(const StudySummary& summary, std::size_t index) {
    std::string out = html_chart("progress", index, 300, "Best speedup over builds",
                                 "The default's median over the fastest ok median found so far, after each finished "
                                 "evaluation: search-phase figures. A filled point's best route was confirmed (re-measured "
                                 "interleaved with the default; its confirmed speedup is in the Confirmation chart); a "
                                 "hollow point on a dashed line is unconfirmed.");
    out += html_chart("trials", index, 300, "Every evaluation in the order it finished",
                      "One point per finished evaluation (search phase, unconfirmed): its speedup over the default "
                      "when it ran ok (grey: byte-identical to an earlier one, its figure), a red cross at the foot for a "
                      "rejected route (failed, crashed, timed out, inaccurate, route_conflict); hover for the route.");
    std::vector<std::string> ok_routes, sample_routes;
    for (const auto& row : report_rows(summary))
        if (row.status == Status::Ok && row.time_s && row.same_as.empty() && ok_routes.size() < ChartLimits{}.routes)
            ok_routes.push_back(row.route);
    if (summary.default_evaluation && has_timing(summary.default_evaluation->timing) && !ok_routes.empty()) {
        out += html_chart("routes", index, rows_height(ok_routes, 10), "Search-phase speedup of each ok route (unconfirmed)",
                          "Fastest " + std::to_string(ok_routes.size()) +
                              " ok routes as the search measured them (unconfirmed: the confirmed figures are in the "
                              "Confirmation chart): the default's median over the route's median (dot) and over the "
                              "ends of the route's 95% interval (bar). The dashed line is the default. Routes whose "
                              "artifact is byte-identical to one measured before were not run again and are not shown.");
        sample_routes.push_back("(default)");
        for (const auto& r : ok_routes)
            if (r != "(default)" && sample_routes.size() <= ChartLimits{}.samples) sample_routes.push_back(r);
        out += html_chart("samples", index, rows_height(sample_routes, 26), "Timing samples",
                          "Every repeat of the default and the fastest routes (one dot each, spread vertically to "
                          "stay visible); the red mark is the median.");
    }
    out += html_chart("failures", index, 300, "Evaluations by phase and status",
                      "What each phase of the search produced; every colour but green is a rejected route.");
    auto effects = knob_effects(summary, ChartLimits{}.effects);
    if (!effects.empty()) {
        std::vector<std::string> labels;
        for (const auto& e : effects) labels.push_back(e.knob + "=" + e.value);
        out += html_chart("effects", index, rows_height(labels, 10), "Which knob values mattered",
                          "The search's additive model of log time fitted to the ok routes: each value's estimated "
                          "speedup against leaving the knob at its default, with a 95% posterior interval. An "
                          "interval across 1 means the data cannot tell.");
    } else {
        out += "<h3>Which knob values mattered</h3>\n<p class=\"caption\">Too few timed routes to fit the model.</p>\n";
    }
    if (!summary.confirmations.empty()) {
        std::vector<std::string> routes;
        DefaultRoute base = default_route_of(summary);
        for (const auto& c : summary.confirmations) routes.push_back(route_changes_text(c.route, base));
        out += html_chart("confirmation", index, rows_height(routes, 16), "Confirmation",
                          "The top routes re-measured interleaved with the default (D A B ... D A B ...): the "
                          "speedup and its bootstrap 95% interval. A route wins only when the whole interval "
                          "clears 1 + min_gain.");
    }
    return out;
}

std::string confirmation_table(const StudySummary& summary) {
    if (summary.confirmations.empty()) return "";
    std::string out = "<table>\n<tr><th>route</th><th>speedup [95% CI]</th><th>time (ms) [95% CI]</th>"
                      "<th>default (ms) [95% CI]</th><th>rounds</th></tr>\n";
    DefaultRoute base = default_route_of(summary);
    for (const auto& c : summary.confirmations) {
        auto ms = [](const TimingSummary& t) {
            return format_ms(t.median_s) + " [" + format_ms(t.ci_low_s) + ", " + format_ms(t.ci_high_s) + "]";
        };
        out += "<tr>" + html_route_cell(route_changes_text(c.route, base), display_route(c.route)) +
               html_cell(interval_text(c.speedup, c.ci_low, c.ci_high), "num") + html_cell(ms(c.timing), "num") +
               html_cell(ms(c.default_timing), "num") + html_cell(std::to_string(c.timing.samples_s.size()), "num") +
               "</tr>\n";
    }
    return out + "</table>\n";
}

std::string evaluations_table(const StudySummary& summary, std::string_view metric) {
    std::string loss_title = metric.empty() ? "loss" : "loss (" + std::string(metric) + ")";
    std::string out = "<h3>Evaluations</h3>\n<table class=\"evaluations\">\n<tr><th>#</th><th>route</th><th>status</th><th>time (ms)</th>"
                      "<th>vs default</th><th>confirmed</th><th>" + escape_html(loss_title) + "</th><th>message</th></tr>\n";
    for (const auto& row : report_rows(summary)) {
        std::string confirmed = format_confirmed(row);
        out += "<tr class=\"" + row_class(row.status) + (row.same_as.empty() ? "" : " same-as") + "\">" +
               html_cell(std::to_string(row.rank), "num") + html_route_cell(row.route, row.full_route) + html_cell(to_string(row.status)) +
               html_cell(row.time_s ? format_ms(*row.time_s) : "-", "num") + html_cell(format_vs_default(row), "num") +
               html_cell(confirmed, confirmed == "unconfirmed" ? "num unconfirmed" : "num") +
               html_cell(row.max_loss ? format_loss(*row.max_loss) : "-", "num") + html_cell(row.message) + "</tr>\n";
    }
    out += "</table>\n<h3>Counts</h3>\n<table>\n<tr><th>status</th><th>count</th></tr>\n";
    for (const auto& [status, n] : status_counts(summary))
        out += "<tr>" + html_cell(to_string(status)) + html_cell(std::to_string(n), "num") + "</tr>\n";
    out += "<tr><th>total</th>" + html_cell(std::to_string(summary.evaluations.size()), "num") + "</tr>\n";
    return out + "</table>\n";
}

std::string fingerprint_table(const StudySummary& summary) {
    std::string out = "<h3>Fingerprint</h3>\n<table>\n";
    for (const auto& [key, value] : summary.fingerprint)
        out += "<tr><th>" + escape_html(key) + "</th>" + html_cell(value) + "</tr>\n";
    if (summary.fingerprint.empty()) out += "<tr><td>none recorded</td></tr>\n";
    return out + "</table>\n";
}

}  // namespace

std::string html_study_section(const HtmlStudy& study, std::size_t index, bool several) {
    const StudySummary& summary = study.summary;
    std::string heading = several ? "Study " + std::to_string(index + 1) + ": " + summary.study + " (" +
                                        summary.search + ")"
                                  : "Study " + summary.study;
    std::string out = "<section class=\"study\" id=\"study-" + std::to_string(index) + "\">\n<h2>" +
                      escape_html(heading) + "</h2>\n<p class=\"outcome\" data-outcome=\"" +
                      std::string(to_string(summary.outcome)) + "\">" + escape_html(outcome_text(summary)) + "</p>\n" +
                      header_table(summary);
    out += charts(summary, index);
    out += confirmation_table(summary);
    out += evaluations_table(summary, study.metric);
    out += fingerprint_table(summary);
    return out + "</section>\n";
}

std::string html_comparison(const std::vector<HtmlStudy>& studies) {
    std::string out = "<section id=\"comparison\">\n<h2>Comparison</h2>\n";
    out += html_chart("compare-progress", 0, 340, "Best speedup over builds, every study",
                      "Each study's default median over its fastest ok median so far.");
    out += "<table>\n<tr><th>#</th><th>study</th><th>search</th><th>evaluations</th><th>ok</th><th>outcome</th>"
           "<th>winner</th><th>speedup [95% CI]</th><th>wall time</th></tr>\n";
    for (std::size_t i = 0; i < studies.size(); ++i) {
        const StudySummary& s = studies[i].summary;
        std::size_t ok = 0;
        for (const auto& e : s.evaluations) ok += e.status == Status::Ok;
        char wall[64];
        std::snprintf(wall, sizeof wall, "%.1f s", s.wall_s);
        out += "<tr>" + html_cell(std::to_string(i + 1), "num") + html_cell(s.study) + html_cell(s.search) +
               html_cell(std::to_string(s.evaluations.size()), "num") + html_cell(std::to_string(ok), "num") +
               html_cell(to_string(s.outcome)) +
               (s.winner ? html_route_cell(route_changes_text(s.winner->route, default_route_of(s)), display_route(s.winner->route))
                         : html_route_cell("none")) +
               html_cell(s.winner ? interval_text(s.winner->speedup, s.winner->ci_low, s.winner->ci_high) : "-", "num") +
               html_cell(wall, "num") + "</tr>\n";
    }
    return out + "</table>\n</section>\n";
}

}  // namespace routetune
