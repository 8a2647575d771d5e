// Dispatches a format name to its writer.
#include "report/render.hpp"

#include "report/html_report.hpp"
#include "report/markdown_report.hpp"
#include "report/summary_json.hpp"
#include "report/table_report.hpp"
#include "routetune/error.hpp"
#include "study/study_notes.hpp"
#include "study/study_runner.hpp"

namespace routetune {

std::string_view report_formats() { return "table, json, markdown, html"; }

std::string render_summary(const StudySummary& summary, std::string_view format,
                           std::string_view metric, bool wide) {
    if (format == "table") {
        TableOptions options;
        options.metric = std::string(metric);
        if (wide) options.route_width = 0;
        return table_report(summary, options);
    }
    if (format == "json") return summary_json_text(summary, metric);
    if (format == "markdown") return markdown_report(summary, metric);
    if (format == "html") return html_report(summary, metric);
    throw UsageError("--format: unknown report format \"" + std::string(format) +
                     "\" (valid: " + std::string(report_formats()) + ")");
}

std::string render_stored_study(const StoreLocation& where, std::string_view format, bool wide) {
    StudySummary summary = load_study_summary(where);
    return render_summary(summary, format, load_study_metric(where), wide);
}

}  // namespace routetune
