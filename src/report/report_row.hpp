// What every human report (table, Markdown, HTML) shows of a study, computed once: the rows
// in display order and the numbers formatted the same way in every format; the per-evaluation
// speedup, which the JSON summary shows too.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/figure_format.hpp"
#include "routetune/study.hpp"

namespace routetune {

/// One evaluation as a report row.
struct ReportRow {
    std::size_t rank = 0;               ///< 1-based position in display order
    std::string route;                  ///< its difference from the default route (route_changes_text)
    std::string full_route;             ///< every assignment (display_route)
    std::string phase;
    Status status = Status::Pending;
    std::optional<double> time_s;       ///< median, when timed
    std::optional<double> vs_default;   ///< speedup_vs_default, when both are timed
    std::optional<std::pair<double, double>> vs_default_ci;  ///< its 95% interval, when it has one
    bool paired = false;                ///< vs_default comes from rounds paired with the default's
    std::optional<double> max_loss;     ///< worst loss over cases (NaN counts as worst)
    std::string message;                ///< one line
    std::string same_as;                ///< the route whose artifact it is (Evaluation::same_as) as its changes; "" when unique
    bool reference = false;             ///< the default's own row
    std::optional<Confirmation> confirmation;  ///< its interleaved re-measurement, when it was confirmed
};

/// A speedup against the default as reports show it (speedup_against_default's estimate): the
/// value and its 95% interval, when it has one.
struct SpeedupFigure {
    double value = 1;
    std::optional<std::pair<double, double>> ci95;
    bool paired = false;  ///< from rounds paired with the default's (calibrated); false: two medians
};

/// One labelled line of a report's header, as plain text.
struct ReportField {
    std::string label;
    std::string value;
};

/// Statuses in report order: ok first, the failures by stage (a route refused before its
/// build first), pending last.
const std::array<Status, 11>& report_status_order();

/// True when the timing holds a measurement (samples, or a positive median).
bool has_timing(const TimingSummary& timing);

/// evaluation's speedup against summary's default (search phase): speedup_against_default (the
/// paired rounds' figure when it has them); nullopt when either has no timing. Every report's
/// per-evaluation speedup is this one.
std::optional<SpeedupFigure> speedup_vs_default(const Evaluation& evaluation, const StudySummary& summary);

/// The confirmation that re-measured route interleaved with the default, or nullptr.
const Confirmation* confirmation_of(const StudySummary& summary, const Route& route);

/// The summary's evaluations as rows: ok ones first, the confirmed routes by confirmed speedup
/// (highest first), then the others by search-phase speedup descending (those without one after,
/// by median ascending; ties by route); then the rest grouped by status in report_status_order,
/// each group in finish order.
std::vector<ReportRow> report_rows(const StudySummary& summary);

/// Evaluations per status, in report_status_order, zeros included.
std::vector<std::pair<Status, std::uint64_t>> status_counts(const StudySummary& summary);

/// The header of every human report: study, spec, search, expression, default (median and
/// interval), speedups (search_figures_text), outcome, why (the outcome's reason, when
/// recorded), winner (speedup and interval), winner artifact, candidates, warm measurement (when
/// the study had warm processes: warm_measurement_text), wall time.
std::vector<ReportField> report_header(const StudySummary& summary);

/// How the search phase's speedups were measured, for the header: paired with the default's
/// runs (with the default's A/A interval), unpaired (uncalibrated), or how many of each; "" when
/// no route other than the default has one.
std::string search_figures_text(const StudySummary& summary);

/// Non-zero counts in report order and the total: "ok 3, build_failed 1, total 4".
std::string counts_text(const StudySummary& summary);

/// The route as reports print it: "(default)" for the empty route.
std::string display_route(const Route& route);

/// A speedup factor with two decimals and the times sign: 1.234 -> "1.23×".
std::string format_speedup(double factor);

/// Bytes in binary units with one decimal: 512 -> "512 B", 16384 -> "16.0 KiB".
std::string format_bytes(std::uint64_t bytes);

/// "1.25× [1.20, 1.30]" with the interval, "1.25×" without; "-" with no value; "= (default)" or
/// "= ROUTE" for a row answered by a byte-identical twin (never a speedup).
std::string format_vs_default(const ReportRow& row);

/// The row's evidence beside its search-phase speedup: the confirmed speedup "1.25× [1.20,
/// 1.30]" when confirmed, "unconfirmed" for any other speedup of a route, "-" otherwise (no
/// speedup, the default's own row, a same_as row).
std::string format_confirmed(const ReportRow& row);

/// The study's outcome in one sentence, confirmed figures only, for the head of a report:
/// "improved: ROUTE is 1.25× faster ...", "default-stays: ...", and so on.
std::string outcome_text(const StudySummary& summary);

/// " (binaries 12.0 KiB, outputs 4.0 KiB)": how the kept bytes split; "" when the split is unknown.
std::string artifact_split_text(const StudySummary& summary);

/// A loss in %.3g; "nan", "inf", "-inf" for non-finite values.
std::string format_loss(double loss);


}  // namespace routetune
