// The plain-text study table that `tune` and `report --format table` print.
#pragma once

#include <cstddef>
#include <string>

#include "routetune/study.hpp"

namespace routetune {

/// How the table is laid out; nothing depends on the terminal.
struct TableOptions {
    std::string metric;             ///< loss metric for the loss column's title ("" : "loss")
    std::size_t route_width = 60;   ///< longer routes are cut to this many columns, ending in …; 0: never cut (--wide)
};

/// The header lines, the evaluations (ok by time, then failures grouped by status with their
/// message), the counts by status and the artifact bytes, with aligned columns.
std::string table_report(const StudySummary& summary, const TableOptions& options = {});

}  // namespace routetune
