// Formats the progress counters into one line and writes it. On a terminal the line is
// redrawn in place: carriage return, erase to end of line, the text, no newline (finish adds
// it). Elsewhere (a log file, CI) redrawing would pile up control codes, so a plain line is
// printed at most once per interval of the study's elapsed time, which the caller supplies:
// the writer reads no clock. The confirmation's rounds take the search's place on the same
// line, and finish draws the final counters over the last of them, so no half-drawn line of
// either phase is left above the table.
#include "report/progress_line.hpp"

#include <cmath>
#include <cstdio>

#include "report/report_row.hpp"

namespace routetune {

std::string format_duration(double seconds) {
    if (!(seconds >= 0) || !std::isfinite(seconds)) seconds = 0;
    auto whole = static_cast<std::uint64_t>(seconds);
    char buffer[64];
    if (whole < 60) {
        std::snprintf(buffer, sizeof buffer, "%llus", static_cast<unsigned long long>(whole));
    } else if (whole < 3600) {
        std::snprintf(buffer, sizeof buffer, "%llum%02llus", static_cast<unsigned long long>(whole / 60),
                      static_cast<unsigned long long>(whole % 60));
    } else {
        std::snprintf(buffer, sizeof buffer, "%lluh%02llum", static_cast<unsigned long long>(whole / 3600),
                      static_cast<unsigned long long>(whole / 60 % 60));
    }
    return buffer;
}

ProgressCounters progress_counters(const StudySummary& summary) {
    ProgressCounters c;
    c.total = summary.candidates_total;
    c.elapsed_s = summary.wall_s;
    bool default_ok = summary.default_evaluation && summary.default_evaluation->status == Status::Ok;
    for (const auto& e : summary.evaluations) {
        if (e.status == Status::Pending) continue;
        ++c.done;
        if (e.status != Status::Ok) {
            ++c.failed[e.status];
            continue;
        }
        ++c.eligible;
        std::optional<SpeedupFigure> speedup = default_ok && !e.route.empty() ? speedup_vs_default(e, summary) : std::nullopt;
        if (speedup && (!c.best_speedup || speedup->value > *c.best_speedup)) c.best_speedup = speedup->value;
    }
    return c;
}

std::string format_progress(const ProgressCounters& c) {
    std::string out = "[";
    out += std::to_string(c.done);
    out += "/";
    if (c.total > 0 && c.done <= c.total) {  // past the plan (mixed's phase two), the total is unknown
        auto percent = c.done >= c.total ? 100 : c.done * 100 / c.total;
        out += std::to_string(c.total) + " " + std::to_string(percent) + "%]";
    } else {
        out += "?]";
    }
    out += " ok " + std::to_string(c.eligible);
    std::uint64_t failed = 0;
    std::string kinds;
    for (const auto& [status, n] : c.failed) {
        if (n == 0) continue;
        failed += n;
        kinds += (kinds.empty() ? "" : ", ") + std::string(to_string(status)) + " " + std::to_string(n);
    }
    out += ", failed " + std::to_string(failed);
    if (failed > 0) out += " (" + kinds + ")";
    if (c.best_speedup) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.2f×", *c.best_speedup);
        out += std::string(", best ") + buffer + " unconfirmed";
    }
    out += ", " + format_duration(c.elapsed_s) + " elapsed";
    if (c.total > 0 && c.done > 0 && c.done < c.total) {
        double left = c.elapsed_s / static_cast<double>(c.done) * static_cast<double>(c.total - c.done);
        out += ", ~" + format_duration(left) + " left";
    }
    return out;
}

std::string format_confirmation(const ConfirmationProgress& p) {
    std::string out = "confirming " + std::to_string(p.routes) + (p.routes == 1 ? " route" : " routes") +
                      " against the default: ";
    out += p.round <= 0 ? std::string("warm-up pass") : "round " + std::to_string(p.round) + "/" + std::to_string(p.rounds);
    return out + ", " + format_duration(p.elapsed_s) + " elapsed";
}

std::string format_minimization(const MinimizationProgress& p) {
    return "minimizing the winner: trial " + std::to_string(p.trial) + ", removing " + std::to_string(p.removing) + " of " +
           std::to_string(p.changes) + (p.changes == 1 ? " change" : " changes") + ", " + format_duration(p.elapsed_s) +
           " elapsed";
}

ProgressWriter::ProgressWriter(std::ostream& out, bool is_tty, double interval_s)
    : out_(out), is_tty_(is_tty), interval_s_(interval_s) {}

void ProgressWriter::show(const std::string& line, double elapsed_s, bool always) {
    if (finished_) return;
    if (is_tty_) {
        out_ << "\r\x1b[K" << line << std::flush;
        drawn_ = true;
        return;
    }
    if (!always && last_printed_s_ && elapsed_s - *last_printed_s_ < interval_s_) return;
    last_printed_s_ = elapsed_s;
    out_ << line << "\n" << std::flush;
}

void ProgressWriter::update(const ProgressCounters& counters) { show(format_progress(counters), counters.elapsed_s, false); }

void ProgressWriter::confirming(const ConfirmationProgress& progress) {
    bool edge = progress.round <= 1 || progress.round >= progress.rounds;
    show(format_confirmation(progress), progress.elapsed_s, edge);
}

void ProgressWriter::minimizing(const MinimizationProgress& progress) {
    show(format_minimization(progress), progress.elapsed_s, progress.trial <= 1);
}

void ProgressWriter::abandon() {
    if (finished_) return;
    finished_ = true;
    if (is_tty_ && drawn_) out_ << "\r\x1b[K" << std::flush;
}

void ProgressWriter::finish(const ProgressCounters& counters) {
    if (finished_) return;
    finished_ = true;
    if (is_tty_) {
        out_ << "\r\x1b[K" << format_progress(counters) << "\n" << std::flush;
    } else {
        out_ << format_progress(counters) << "\n" << std::flush;
    }
}

}  // namespace routetune
