// Builds report rows: ok evaluations are sorted with the confirmed routes first (re-measured
// interleaved with the default: the only figures the outcome rests on), then by their search-phase
// speedup against the default (speedup_vs_default: from rounds paired with the default's when
// measured so, where the default's median drifting cannot reorder them), then those without one
// by median time (stable, ties by route text); the others are bucketed by status in the fixed
// report order, keeping finish order inside a bucket. The worst loss treats NaN as worse than
// any number, since NaN always fails. A row answered by a byte-identical twin shows "= ROUTE"
// (the twin's changes from the default route), never a speedup.
#include "report/report_row.hpp"

#include "report/case_classes.hpp"
#include "report/left_out_note.hpp"
#include "report/route_changes.hpp"
#include "report/warm_note.hpp"
#include "routetune/error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace routetune {

const std::array<Status, 11>& report_status_order() {
    static const std::array<Status, 11> order{
        Status::Ok,        Status::Inaccurate, Status::RouteConflict, Status::BuildFailed,
        Status::BuildCrashed, Status::BuildTimeout, Status::RunFailed,
        Status::RunCrashed, Status::RunTimeout, Status::Abandoned, Status::Pending,
    };
    return order;
}

bool has_timing(const TimingSummary& timing) {
    return !timing.samples_s.empty() || timing.median_s > 0;
}

std::string display_route(const Route& route) {
    return route.empty() ? std::string("(default)") : route.to_string();
}

namespace {

std::optional<double> worst_loss(const Evaluation& evaluation) {
    std::optional<double> worst;
    for (const auto& c : evaluation.cases) {
        if (!worst) {
            worst = c.loss;
        } else if (!std::isnan(*worst) && (std::isnan(c.loss) || c.loss > *worst)) {
            worst = c.loss;
        }
    }
    return worst;
}

// The twin a same_as names, shown like every route: as its changes from the default route ("(default)"
// as it is; a twin that differs in no knob, or text that is no route, keeps its whole text).
std::string twin_text(const std::string& same_as, const DefaultRoute& base) {
    if (same_as.empty() || same_as == display_route(Route())) return same_as;
    try {
        std::string changes = route_changes_text(Route::parse(same_as), base);
        return changes == kNoChanges ? same_as : changes;
    } catch (const UsageError&) {
        return same_as;
    }
}

ReportRow make_row(const Evaluation& evaluation, const StudySummary& summary, const DefaultRoute& base) {
    ReportRow row;
    row.route = route_changes_text(evaluation.route, base);
    row.full_route = display_route(evaluation.route);
    row.phase = evaluation.phase;
    row.status = evaluation.status;
    row.same_as = twin_text(evaluation.same_as, base);
    row.reference = summary.default_evaluation && evaluation.route == summary.default_evaluation->route;
    if (has_timing(evaluation.timing)) {
        row.time_s = evaluation.timing.median_s;
        if (auto speedup = speedup_vs_default(evaluation, summary)) {
            row.vs_default = speedup->value;
            row.vs_default_ci = speedup->ci95;
            row.paired = speedup->paired;
        }
    }
    if (const Confirmation* c = confirmation_of(summary, evaluation.route); c && !row.reference) row.confirmation = *c;
    row.max_loss = worst_loss(evaluation);
    row.message = one_line(evaluation.message);
    return row;
}

// Confirmed rows first, highest confirmed speedup first; then by search-phase speedup, highest
// first; then by median.
bool ok_row_before(const ReportRow& a, const ReportRow& b) {
    if (a.confirmation.has_value() != b.confirmation.has_value()) return a.confirmation.has_value();
    if (a.confirmation && a.confirmation->speedup != b.confirmation->speedup)
        return a.confirmation->speedup > b.confirmation->speedup;
    if (a.vs_default.has_value() != b.vs_default.has_value()) return a.vs_default.has_value();
    double ta = a.vs_default ? -*a.vs_default : a.time_s.value_or(INFINITY);
    double tb = b.vs_default ? -*b.vs_default : b.time_s.value_or(INFINITY);
    if (ta != tb) return ta < tb;
    return a.route < b.route;
}

}  // namespace

std::optional<SpeedupFigure> speedup_vs_default(const Evaluation& evaluation, const StudySummary& summary) {
    const auto& d = summary.default_evaluation;
    if (!d || !has_timing(d->timing) || !has_timing(evaluation.timing)) return std::nullopt;
    std::optional<SpeedupEstimate> estimate = speedup_against_default(evaluation, *d);
    if (!estimate) return std::nullopt;
    SpeedupFigure figure;
    figure.value = estimate->speedup;
    figure.paired = estimate->paired;
    if (std::isfinite(estimate->ci_low) && std::isfinite(estimate->ci_high))
        figure.ci95 = std::make_pair(estimate->ci_low, estimate->ci_high);
    return figure;
}

const Confirmation* confirmation_of(const StudySummary& summary, const Route& route) {
    for (const auto& c : summary.confirmations)
        if (c.route == route) return &c;
    return nullptr;
}

std::vector<ReportRow> report_rows(const StudySummary& summary) {
    DefaultRoute base = default_route_of(summary);
    std::vector<ReportRow> rows;
    for (Status status : report_status_order()) {
        std::vector<ReportRow> group;
        for (const auto& evaluation : summary.evaluations) {
            if (evaluation.status == status) group.push_back(make_row(evaluation, summary, base));
        }
        if (status == Status::Ok) std::stable_sort(group.begin(), group.end(), ok_row_before);
        rows.insert(rows.end(), group.begin(), group.end());
    }
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i].rank = i + 1;
    return rows;
}

std::vector<std::pair<Status, std::uint64_t>> status_counts(const StudySummary& summary) {
    std::vector<std::pair<Status, std::uint64_t>> counts;
    for (Status status : report_status_order()) {
        auto n = std::count_if(summary.evaluations.begin(), summary.evaluations.end(),
                               [status](const Evaluation& e) { return e.status == status; });
        counts.emplace_back(status, static_cast<std::uint64_t>(n));
    }
    return counts;
}

namespace {

std::string speedup_with_interval(double value, const std::optional<std::pair<double, double>>& ci) {
    std::string text = format_speedup(value);
    if (!ci) return text;
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, " [%.2f, %.2f]", ci->first, ci->second);
    return text + buffer;
}

}  // namespace

std::string format_vs_default(const ReportRow& row) {
    if (!row.same_as.empty()) return "= " + row.same_as;
    if (!row.vs_default) return "-";
    return speedup_with_interval(*row.vs_default, row.vs_default_ci);
}

std::string format_confirmed(const ReportRow& row) {
    if (row.confirmation)
        return speedup_with_interval(row.confirmation->speedup, std::make_pair(row.confirmation->ci_low, row.confirmation->ci_high));
    if (!row.vs_default || row.reference || !row.same_as.empty()) return "-";
    return "unconfirmed";
}

std::string outcome_text(const StudySummary& summary) {
    std::string outcome(to_string(summary.outcome));
    std::string why = summary.message.empty() ? "" : " (" + one_line(summary.message) + ")";
    if (summary.winner) {
        const Confirmation& w = *summary.winner;
        if (!std::isfinite(w.speedup)) return outcome + ": " + display_route(w.route) + why;
        return outcome + ": " + display_route(w.route) + " is " + format_speedup(w.speedup) + " as fast as the default, 95% CI [" +
               format_speedup(w.ci_low) + ", " + format_speedup(w.ci_high) + "], confirmed interleaved with the default" + why;
    }
    switch (summary.outcome) {
        case Outcome::DefaultStays:
            return outcome + ": no route was confirmed faster than the default" + why +
                   "; every speedup marked unconfirmed is a search-phase figure";
        case Outcome::Unfinished:
            return outcome + ": nothing is confirmed yet; every speedup shown is a search-phase figure, unconfirmed";
        default: return outcome + why;
    }
}

std::string artifact_split_text(const StudySummary& summary) {
    if (summary.binary_bytes + summary.output_bytes != summary.artifact_bytes || summary.artifact_bytes == 0) return "";
    return " (binaries " + format_bytes(summary.binary_bytes) + ", outputs " + format_bytes(summary.output_bytes) + ")";
}

std::string format_speedup(double factor) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.2f×", factor);
    return buffer;
}

std::string format_bytes(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " B";
    static const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes) / 1024;
    std::size_t unit = 0;
    while (value >= 1024 && unit + 1 < std::size(units)) {
        value /= 1024;
        ++unit;
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.1f %s", value, units[unit]);
    return buffer;
}

std::string format_loss(double loss) {
    if (std::isnan(loss)) return "nan";
    if (std::isinf(loss)) return loss > 0 ? "inf" : "-inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3g", loss);
    return buffer;
}

std::string search_figures_text(const StudySummary& summary) {
    const auto& d = summary.default_evaluation;
    if (!d || !has_timing(d->timing)) return "";
    std::size_t paired = 0, timed = 0;
    for (const auto& e : summary.evaluations) {
        if (e.status != Status::Ok || e.route == d->route || !e.same_as.empty() || !has_timing(e.timing)) continue;
        std::optional<SpeedupFigure> speedup = speedup_vs_default(e, summary);
        timed += speedup.has_value();
        paired += speedup && speedup->paired;
    }
    if (timed == 0) return "";
    if (paired == 0)
        return "unpaired: each route timed alone against the default's first timing; uncalibrated (drift in the "
               "machine's load can look like a gain)";
    std::string text = paired == timed ? "paired with the default's runs, round by round (calibrated under drifting load)"
                                       : std::to_string(paired) + " of " + std::to_string(timed) +
                                             " routes paired with the default's runs; the others are unpaired and uncalibrated";
    std::optional<SpeedupFigure> aa = speedup_vs_default(*d, summary);
    if (aa && aa->paired && aa->ci95) {
        char spread[96];
        std::snprintf(spread, sizeof spread, "; the default against itself (A/A): [%.2f, %.2f]", aa->ci95->first, aa->ci95->second);
        text += spread;
    }
    return text;
}

std::vector<ReportField> report_header(const StudySummary& summary) {
    std::vector<ReportField> fields;
    fields.push_back({"study", summary.study});
    if (!summary.spec_path.empty()) fields.push_back({"spec", summary.spec_path});
    fields.push_back({"search", summary.search});
    if (!summary.expression.empty()) fields.push_back({"expression", summary.expression});
    std::string def = "not evaluated";
    if (summary.default_evaluation) {
        const auto& timing = summary.default_evaluation->timing;
        if (summary.default_evaluation->status == Status::Ok && has_timing(timing)) {
            def = format_ms(timing.median_s) + " ms, 95% CI [" + format_ms(timing.ci_low_s) + ", " +
                  format_ms(timing.ci_high_s) + "] ms";
        } else {
            def = std::string(to_string(summary.default_evaluation->status));
        }
    }
    fields.push_back({"default", def});
    std::string figures = search_figures_text(summary);
    if (!figures.empty()) fields.push_back({"speedups", figures});
    bool other_routes = std::any_of(summary.evaluations.begin(), summary.evaluations.end(),
                                     [](const Evaluation& e) { return !e.route.empty(); });
    if (other_routes) fields.push_back({"routes", route_changes_note(default_route_of(summary))});
    fields.push_back({"outcome", std::string(to_string(summary.outcome))});
    if (!summary.message.empty()) fields.push_back({"why", one_line(summary.message)});
    std::string classes = class_summary_text(results_by_class(summary));
    if (!classes.empty()) fields.push_back({"cases by class", classes});
    if (summary.winner) {
        const auto& w = *summary.winner;
        fields.push_back({"winner", display_route(w.route) + " (" + format_speedup(w.speedup) +
                                        ", 95% CI [" + format_speedup(w.ci_low) + ", " +
                                        format_speedup(w.ci_high) + "])"});
        if (!summary.winner_artifact.empty()) fields.push_back({"artifact", summary.winner_artifact});
    } else {
        fields.push_back({"winner", "none"});
    }
    auto unfinished = static_cast<std::size_t>(std::count_if(summary.evaluations.begin(), summary.evaluations.end(),
                                                             [](const Evaluation& e) { return e.status == Status::Pending; }));
    std::string candidates = std::to_string(summary.evaluations.size() - unfinished) + " evaluated";
    if (unfinished > 0) candidates += ", " + std::to_string(unfinished) + " started and never finished";
    if (summary.candidates_total > 0) {
        candidates += (unfinished > 0 ? ", of " : " of ") + std::to_string(summary.candidates_total) + " planned";
    }
    fields.push_back({"candidates", candidates});
    if (!summary.left_out.empty()) fields.push_back({"left out", left_out_summary(summary.left_out)});
    std::string warm = warm_measurement_text(summary);
    if (!warm.empty()) fields.push_back({"warm measurement", warm});
    char wall[64];
    std::snprintf(wall, sizeof wall, "%.1f s", summary.wall_s);
    fields.push_back({"wall time", wall});
    return fields;
}

std::string counts_text(const StudySummary& summary) {
    std::string text;
    for (const auto& [status, n] : status_counts(summary)) {
        if (n == 0) continue;
        text += std::string(to_string(status)) + " " + std::to_string(n) + ", ";
    }
    return text + "total " + std::to_string(summary.evaluations.size());
}

}  // namespace routetune
