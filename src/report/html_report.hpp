// The study as one self-contained HTML page (inline style, no scripts, no external files).
#pragma once

#include <string>
#include <string_view>

#include "routetune/study.hpp"

namespace routetune {

/// An HTML5 page with the header, evaluations and counts tables; all study text is escaped.
std::string html_report(const StudySummary& summary, std::string_view metric = "");

/// text with & < > " ' replaced by character references, safe in element text and attributes.
std::string escape_html(std::string_view text);

}  // namespace routetune
