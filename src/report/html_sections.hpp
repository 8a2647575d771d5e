// The parts of the HTML report page: one study's section, the comparison, table helpers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/html_study.hpp"

namespace routetune {

/// A <td> with escaped text and an optional class.
std::string html_cell(std::string_view text, std::string_view css = "");

/// A <td class="route"> holding route's space-separated values each in a <span class="tok">
/// that never breaks (so "-march=x86-64" is never cut at its hyphen); lines break between values.
/// With a full route other than route (route is its changes from the default), the cell's title
/// and data-route hold it, so hovering shows every assignment. kNoChanges is one token.
std::string html_route_cell(std::string_view route, std::string_view full = "");

/// A chart placeholder: <canvas data-chart=kind data-study=index> in a box height_px tall,
/// under a heading and over a caption.
std::string html_chart(std::string_view kind, std::size_t index, int height_px, std::string_view heading,
                       std::string_view caption);

/// Study index's section: header, warnings, charts, confirmation, evaluations, counts, fingerprint.
std::string html_study_section(const HtmlStudy& study, std::size_t index, bool several);

/// The comparison of several studies: best speedup over builds and a table of outcomes.
std::string html_comparison(const std::vector<HtmlStudy>& studies);

}  // namespace routetune
