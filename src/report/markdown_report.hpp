// The study as GitHub-flavoured Markdown: the same content as the text table.
#pragma once

#include <string>
#include <string_view>

#include "routetune/study.hpp"

namespace routetune {

/// A Markdown document: header table, evaluations table, counts table, artifact bytes.
std::string markdown_report(const StudySummary& summary, std::string_view metric = "");

/// text made safe inside a Markdown table cell: punctuation that Markdown or HTML would read
/// is backslash-escaped, and line breaks become spaces.
std::string escape_markdown(std::string_view text);

}  // namespace routetune
