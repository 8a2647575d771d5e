// Writes the report rows as an HTML page. Every string that comes from the study (routes,
// messages, names, paths, the metric) passes through escape_html; only the fixed markup of
// this file is written raw. Failed rows carry their status as a CSS class for colouring.
#include "report/html_report.hpp"

#include "report/report_row.hpp"

namespace routetune {

std::string escape_html(std::string_view text) {
    std::string out;
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

namespace {

constexpr std::string_view kStyle =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}"
    "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}"
    "td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "td.route{font-family:monospace}"
    "tr.ok td{background:#f3fbf3}tr.fail td{background:#fdf3f3}tr.pending td{background:#f6f6f6}";

std::string cell(std::string_view text, std::string_view css = "") {
    std::string open = css.empty() ? "<td>" : "<td class=\"" + std::string(css) + "\">";
    return open + escape_html(text) + "</td>";
}

std::string row_class(Status status) {
    if (status == Status::Ok) return "ok";
    if (status == Status::Pending) return "pending";
    return "fail";
}

}  // namespace

std::string html_report(const StudySummary& summary, std::string_view metric) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<title>routetune study: " + escape_html(summary.study) + "</title>\n";
    out += "<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
    out += "<h1>routetune study: " + escape_html(summary.study) + "</h1>\n<table>\n";
    for (const auto& field : report_header(summary)) {
        out += "<tr><th>" + escape_html(field.label) + "</th>" + cell(field.value) + "</tr>\n";
    }
    out += "</table>\n<h2>Evaluations</h2>\n<table>\n";
    std::string loss_title = metric.empty() ? "loss" : "loss (" + std::string(metric) + ")";
    out += "<tr><th>#</th><th>route</th><th>status</th><th>time (ms)</th><th>vs default</th><th>" +
           escape_html(loss_title) + "</th><th>message</th></tr>\n";
    for (const auto& row : report_rows(summary)) {
        out += "<tr class=\"" + row_class(row.status) + "\">" + cell(std::to_string(row.rank), "num") +
               cell(row.route, "route") + cell(to_string(row.status)) +
               cell(row.time_s ? format_ms(*row.time_s) : "-", "num") +
               cell(row.vs_default ? format_speedup(*row.vs_default) : "-", "num") +
               cell(row.max_loss ? format_loss(*row.max_loss) : "-", "num") + cell(row.message) +
               "</tr>\n";
    }
    out += "</table>\n<h2>Counts</h2>\n<table>\n<tr><th>status</th><th>count</th></tr>\n";
    for (const auto& [status, n] : status_counts(summary)) {
        out += "<tr>" + cell(to_string(status)) + cell(std::to_string(n), "num") + "</tr>\n";
    }
    out += "<tr><th>total</th>" + cell(std::to_string(summary.evaluations.size()), "num") + "</tr>\n";
    out += "</table>\n<p>Artifacts kept: " + std::to_string(summary.artifact_bytes) + " bytes.</p>\n";
    out += "</body>\n</html>\n";
    return out;
}

}  // namespace routetune
