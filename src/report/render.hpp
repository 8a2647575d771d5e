// One entry point for every study report format, for `report --format` and `tune`.
#pragma once

#include <string>
#include <string_view>

#include "routetune/study.hpp"

namespace routetune {

/// The formats render_summary knows: "table", "json", "markdown", "html".
std::string_view report_formats();

/// The summary in format (table | json | markdown | html); metric names the loss metric; wide:
/// the table shows whole routes (Markdown and HTML always do). Throws UsageError naming the
/// format and listing the valid ones.
std::string render_summary(const StudySummary& summary, std::string_view format,
                           std::string_view metric = "", bool wide = false);

}  // namespace routetune
