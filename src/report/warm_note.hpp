// What a study's warm measurement processes showed, in one line of a report's header: how many
// processes served it and why any was replaced, what a request cost, how far the default moved
// in each process from first to last, the code each build ran and how, and why where a process said
// (the first such reason, cut to 160 columns; all of them are in the JSON) (docs/measurement-protocol.md).
#pragma once

#include <string>

#include "routetune/study.hpp"

namespace routetune {

/// "1 process, 84 runs; a request 0.311 s median, 8.82 s at most; the default 1.771 ms first,
/// 1.369 ms last (22.7% apart); 14 builds, each one code hash (ran: captured 11; captured, kept 6)"
/// (each way a process said it ran builds, with how many builds it ran that way); "" when the
/// study had no warm measurement process.
std::string warm_measurement_text(const StudySummary& summary);

}  // namespace routetune
