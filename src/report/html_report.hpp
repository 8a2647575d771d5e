// The study as one self-contained HTML page: tables and Chart.js charts, Chart.js itself
// inlined, no external file or request (a Content-Security-Policy forbids any).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/html_study.hpp"
#include "routetune/study.hpp"

namespace routetune {

/// How a page behaves.
struct HtmlOptions {
    int live_poll_s = 0;  ///< > 0: the page polls ./state this often and reloads on change (serve)
    std::string state;    ///< the state the page was rendered at (see study_state)
};

/// A page for one study.
std::string html_report(const StudySummary& summary, std::string_view metric = "");

/// A page for several studies: a comparison (best speedup over builds, outcomes) first when
/// there are two or more, then each study's charts and tables; all study text is escaped.
std::string html_report(const std::vector<HtmlStudy>& studies, const HtmlOptions& options = {});

/// A token that changes whenever an evaluation, confirmation or outcome is recorded.
std::string study_state(const std::vector<HtmlStudy>& studies);

}  // namespace routetune
