// What every part of the HTML page works from: one study and its metric, and the one escape
// of study text into the page.
#pragma once

#include <string>
#include <string_view>

#include "routetune/study.hpp"

namespace routetune {

/// One study of a page and the name of its loss metric.
struct HtmlStudy {
    StudySummary summary;
    std::string metric;
};

/// text with & < > " ' replaced by character references, safe in element text and attributes.
std::string escape_html(std::string_view text);

}  // namespace routetune
