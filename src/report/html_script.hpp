// The fixed scripts of the HTML report (study data travels separately, as JSON).
#pragma once

#include <string_view>

namespace routetune {

/// Runs first: records every error, console.error and CSP violation in window.routetuneErrors
/// and in the page's #page-errors list, so a headless browser's DOM dump shows them.
std::string_view html_error_hook_script();

/// Draws every chart from the JSON in #study-data with Chart.js (which must be loaded first);
/// marks each canvas data-drawn="true" once it holds pixels, and sets data-charts,
/// data-drawn and data-errors on <body> when done. In a live page it polls ./state and
/// reloads when the evaluation count changes.
std::string_view html_chart_script();

/// Chart.js itself (UMD build), embedded at build time from Debian's libjs-chart.js.
std::string_view chartjs_source();

}  // namespace routetune
