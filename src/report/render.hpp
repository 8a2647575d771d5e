// One entry point for every study report format, for `report --format` and `tune`.
#pragma once

#include <string>
#include <string_view>

#include "routetune/study.hpp"
#include "store/store_location.hpp"

namespace routetune {

/// The formats render_summary knows: "table", "json", "markdown", "html".
std::string_view report_formats();

/// The summary in format (table | json | markdown | html); metric names the loss metric; wide:
/// the table shows whole routes (Markdown and HTML always do). Throws UsageError naming the
/// format and listing the valid ones.
std::string render_summary(const StudySummary& summary, std::string_view format,
                           std::string_view metric = "", bool wide = false);

/// The study stored at where in format, with the loss metric its store names: what `report`
/// prints for one store (and what the Python package reads). UsageError when no study is there.
std::string render_stored_study(const StoreLocation& where, std::string_view format, bool wide = false);

}  // namespace routetune
