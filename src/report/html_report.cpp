// Assembles the report page: a strict Content-Security-Policy (nothing may be fetched; inline
// scripts and styles only, plus ./state for a live page), the error hook first, the study
// sections, the chart data as JSON in a non-executed <script> block (every '<' written as
// \u003c, so no study text can close it), Chart.js inlined, then the drawing script.
#include "report/html_report.hpp"

#include <nlohmann/json.hpp>

#include "report/html_chart_data.hpp"
#include "report/html_script.hpp"
#include "report/html_sections.hpp"

namespace routetune {

namespace {

constexpr std::string_view kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    "td.route{font-family:monospace;max-width:45em}td.route .tok{white-space:nowrap}"
    "th.sortable{cursor:pointer}input.row-filter{margin:.4em 0;width:24em}"
    "tr.ok td{background:#f3fbf3}tr.fail td{background:#fdf3f3}tr.pending td{background:#f6f6f6}"
    ".chart{position:relative;width:100%;margin:.5em 0 0}"
    ".caption{color:#555;font-size:.9em;margin:.2em 0 1.5em}"
    ".warning{background:#fff4e0;border-left:4px solid #ef6c00;padding:.4em .8em}"
    "#page-errors{color:#b00020}section.study{border-top:2px solid #ddd;margin-top:2em}"
    "p.outcome{font-size:1.15em;font-weight:600;margin:.5em 0 1em}td.unconfirmed{color:#777;font-style:italic}";

std::string json_for_script(const nlohmann::json& value) {
    std::string text = value.dump();
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '<') out += "\\u003c";
        else out += c;
    }
    return out;
}

std::string title_of(const std::vector<HtmlStudy>& studies) {
    if (studies.size() == 1) return "routetune study: " + studies[0].summary.study;
    std::string names;
    for (const auto& s : studies) names += (names.empty() ? "" : ", ") + s.summary.study;
    return "routetune studies: " + names;
}

}  // namespace

std::string study_state(const std::vector<HtmlStudy>& studies) {
    std::string state;
    for (const auto& s : studies) {
        std::size_t finished = 0;
        for (const auto& e : s.summary.evaluations) finished += e.status != Status::Pending;
        state += std::to_string(s.summary.evaluations.size()) + "." + std::to_string(finished) + "." +
                 std::to_string(s.summary.confirmations.size()) + "." +
                 std::string(to_string(s.summary.outcome)) + ";";
    }
    return state;
}

std::string html_report(const StudySummary& summary, std::string_view metric) {
    return html_report(std::vector<HtmlStudy>{{summary, std::string(metric)}});
}

std::string html_report(const std::vector<HtmlStudy>& studies, const HtmlOptions& options) {
    std::string policy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";
    if (options.live_poll_s > 0) policy += "; connect-src 'self'";
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<meta http-equiv=\"Content-Security-Policy\" content=\"" + policy + "\">\n";
    out += "<title>" + escape_html(title_of(studies)) + "</title>\n";
    out += "<style>" + std::string(kStyle) + "</style>\n";
    out += "<script>" + std::string(html_error_hook_script()) + "</script>\n</head>\n<body>\n";
    out += "<h1>" + escape_html(title_of(studies)) + "</h1>\n";
    out += "<ul id=\"page-errors\" hidden></ul>\n";
    if (options.live_poll_s > 0)
        out += "<p class=\"caption\">Live view: the page reloads when evaluations land.</p>\n";
    if (studies.size() > 1) out += html_comparison(studies);
    for (std::size_t i = 0; i < studies.size(); ++i) out += html_study_section(studies[i], i, studies.size() > 1);
    nlohmann::json data;
    data["live"] = options.live_poll_s;
    data["state"] = options.state.empty() ? study_state(studies) : options.state;
    data["studies"] = nlohmann::json::array();
    for (const auto& s : studies) data["studies"].push_back(chart_data(s.summary));
    out += "<script type=\"application/json\" id=\"study-data\">" + json_for_script(data) + "</script>\n";
    out += "<script>" + std::string(chartjs_source()) + "</script>\n";
    out += "<script>" + std::string(html_chart_script()) + "</script>\n";
    out += "</body>\n</html>\n";
    return out;
}

}  // namespace routetune
