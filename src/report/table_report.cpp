// Lays out the study table: the header fields as "label  value" lines, then a grid whose
// column widths are the widest cell of each column (measured in code points, so × and … count
// as one column). Text columns are left-aligned, numbers right-aligned; the message is the
// last column and is not padded, and no line carries trailing spaces. Every cell and header
// value is made displayable first (util/excerpt: control characters and bidirectional
// overrides escaped), so a route or message cannot garble the terminal or reorder the table.
#include "report/table_report.hpp"

#include <algorithm>
#include <vector>

#include "report/figure_format.hpp"
#include "report/report_row.hpp"
#include "util/excerpt.hpp"

namespace routetune {

namespace {

enum class Align { Left, Right };

struct Column {
    std::string title;
    Align align;
};

std::string pad(const std::string& text, std::size_t width, Align align) {
    std::size_t w = display_width(text);
    std::string fill(w < width ? width - w : 0, ' ');
    return align == Align::Left ? text + fill : fill + text;
}

std::string rstrip(std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line;
}

std::string grid(const std::vector<Column>& columns, std::vector<std::vector<std::string>> cells) {
    for (auto& row : cells) {
        for (auto& cell : row) cell = displayable(cell);
    }
    std::vector<std::size_t> widths;
    for (const auto& column : columns) widths.push_back(display_width(column.title));
    for (const auto& row : cells) {
        for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
    }
    auto line = [&](const std::vector<std::string>& row) {
        std::string out;
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (i > 0) out += "  ";
            bool last = i + 1 == row.size();
            out += last ? row[i] : pad(row[i], widths[i], columns[i].align);
        }
        return rstrip(out) + "\n";
    };
    std::vector<std::string> titles;
    for (const auto& column : columns) titles.push_back(column.title);
    std::string out = line(titles);
    for (const auto& row : cells) out += line(row);
    return out;
}

}  // namespace

std::string table_report(const StudySummary& summary, const TableOptions& options) {
    std::string out;
    auto fields = report_header(summary);
    std::size_t label_width = 0;
    for (const auto& field : fields) label_width = std::max(label_width, field.label.size());
    for (const auto& field : fields) {
        out += rstrip(pad(field.label, label_width, Align::Left) + "  " + displayable(field.value)) + "\n";
    }
    out += "\n";
    std::string loss_title = options.metric.empty() ? "loss" : "loss (" + options.metric + ")";
    std::vector<Column> columns{{"#", Align::Right},          {"route", Align::Left},
                                {"status", Align::Left},      {"time (ms)", Align::Right},
                                {"vs default", Align::Right}, {"confirmed", Align::Right},
                                {loss_title, Align::Right},   {"message", Align::Left}};
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : report_rows(summary)) {
        cells.push_back({std::to_string(row.rank), (options.route_width == 0 ? row.route : truncate_display(row.route, options.route_width)),
                         std::string(to_string(row.status)), row.time_s ? format_ms(*row.time_s) : "-",
                         format_vs_default(row), format_confirmed(row),
                         row.max_loss ? format_loss(*row.max_loss) : "-", row.message});
    }
    if (cells.empty()) {
        out += "no evaluations\n";
    } else {
        out += grid(columns, cells);
    }
    out += "\n";
    out += "counts     " + counts_text(summary) + "\n";
    out += "artifacts  " + format_bytes(summary.artifact_bytes) + " kept" + artifact_split_text(summary) + "\n";
    return out;
}

}  // namespace routetune
