// Writes the report rows as GitHub Markdown tables. Every cell from the study (routes,
// messages, paths) goes through escape_markdown, which backslash-escapes the ASCII
// punctuation that could start emphasis, code, links, images, raw HTML, character references
// or a new table cell; line breaks and tabs become spaces, and other control characters and the
// bidirectional overrides are escaped (util/excerpt's displayable). Parentheses need no escape once brackets are escaped, and a cell never
// starts a line, so "#", "+" and "-" are left alone.
#include "report/markdown_report.hpp"

#include "report/report_row.hpp"
#include "util/excerpt.hpp"

namespace routetune {

std::string escape_markdown(std::string_view text) {
    static constexpr std::string_view kSpecial = "\\`*_[]<>!|&~";
    std::string spaced(text);
    for (char& c : spaced) {
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    }
    std::string out;
    for (char c : displayable(spaced)) {
        if (kSpecial.find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

std::string markdown_report(const StudySummary& summary, std::string_view metric) {
    std::string out = "# routetune study: " + escape_markdown(summary.study) + "\n\n";
    out += "| field | value |\n| --- | --- |\n";
    for (const auto& field : report_header(summary)) {
        out += "| " + escape_markdown(field.label) + " | " + escape_markdown(field.value) + " |\n";
    }
    out += "\n## Evaluations\n\n";
    std::string loss_title = metric.empty() ? "loss" : "loss (" + std::string(metric) + ")";
    out += "| # | route | status | time (ms) | vs default | confirmed | " + escape_markdown(loss_title) +
           " | message |\n";
    out += "| ---: | --- | --- | ---: | ---: | ---: | ---: | --- |\n";
    for (const auto& row : report_rows(summary)) {
        out += "| " + std::to_string(row.rank) + " | " + escape_markdown(row.route) + " | " +
               escape_markdown(to_string(row.status)) + " | " +
               (row.time_s ? format_ms(*row.time_s) : "-") + " | " +
               (row.same_as.empty() ? format_vs_default(row) : escape_markdown(format_vs_default(row))) + " | " +
               format_confirmed(row) + " | " +
               (row.max_loss ? format_loss(*row.max_loss) : "-") + " | " +
               escape_markdown(row.message) + " |\n";
    }
    out += "\n## Counts\n\n| status | count |\n| --- | ---: |\n";
    for (const auto& [status, n] : status_counts(summary)) {
        out += "| " + escape_markdown(to_string(status)) + " | " + std::to_string(n) + " |\n";
    }
    out += "| total | " + std::to_string(summary.evaluations.size()) + " |\n";
    out += "\nArtifacts kept: " + format_bytes(summary.artifact_bytes) + artifact_split_text(summary) + ".\n";
    return out;
}

}  // namespace routetune
