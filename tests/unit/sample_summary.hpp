// A small hand-built study summary shared by the report tests: a default, two ok routes, an
// inaccurate one with NaN and infinite losses, a failed build with a two-line message, and a
// pending candidate; and the same with a route answered by the default's artifact.
#pragma once

#include <limits>

#include "routetune/study.hpp"

namespace routetune::testing {

inline TimingSummary timing(double median, double low, double high) {
    TimingSummary t;
    t.samples_s = {low, median, high};
    t.median_s = median;
    t.ci_low_s = low;
    t.ci_high_s = high;
    return t;
}

inline Evaluation evaluation(const char* route, const char* phase, Status status) {
    Evaluation e;
    e.route = Route::parse(route);
    e.phase = phase;
    e.status = status;
    return e;
}

inline CaseResult case_result(const char* name, double loss) {
    CaseResult c;
    c.name = name;
    c.loss = loss;
    return c;
}

inline StudySummary sample_summary() {
    StudySummary s;
    s.study = "matmul";
    s.spec_path = "/specs/matmul.toml";
    s.search = "fast";
    s.expression = "-O=[2|3] -funroll-loops=[on|off]";
    s.fingerprint = {{"compiler", "gcc 12.2.0"}, {"cpu", "x86_64"}};

    Evaluation d = evaluation("", "default", Status::Ok);
    d.timing = timing(0.02, 0.019, 0.021);
    d.build_s = 0.5;
    d.cases = {case_result("typical", 0)};
    Evaluation fast = evaluation("-O=3", "fast", Status::Ok);
    fast.timing = timing(0.016, 0.0155, 0.0165);
    fast.build_s = 0.75;
    fast.cases = {case_result("typical", 1e-9)};
    Evaluation slow = evaluation("-funroll-loops=on", "fast", Status::Ok);
    slow.timing = timing(0.025, 0.024, 0.026);
    slow.build_s = 0.5;
    slow.cases = {case_result("typical", 0)};
    Evaluation wrong = evaluation("-ffast-math=on", "fast", Status::Inaccurate);
    wrong.build_s = 0.25;
    wrong.cases = {case_result("typical", std::numeric_limits<double>::infinity()),
                   case_result("edge", std::numeric_limits<double>::quiet_NaN())};
    wrong.message = "case edge: loss nan over threshold 1e-06";
    Evaluation broken = evaluation("-march=native", "fast", Status::BuildFailed);
    broken.build_s = 0.125;
    broken.message = "gcc: error: bad value\nfor -march";
    Evaluation pending = evaluation("-O=2", "fast", Status::Pending);

    s.default_evaluation = d;
    s.evaluations = {d, slow, fast, wrong, broken, pending};
    Confirmation c;
    c.route = fast.route;
    c.default_timing = timing(0.02, 0.0195, 0.0205);
    c.timing = timing(0.016, 0.0158, 0.0162);
    c.speedup = 1.25;
    c.ci_low = 1.2;
    c.ci_high = 1.3;
    s.winner = c;
    s.winner_artifact = ".routetune/artifacts/ab.bin";
    s.confirmations = {c};
    s.outcome = Outcome::Improved;
    s.candidates_total = 8;
    s.artifact_bytes = 4096;
    s.wall_s = 12.5;
    return s;
}

/// The sample study with one more route, -fgcse-sm=on, answered by the default's artifact: the
/// default's figures, same_as "(default)"; appended last.
inline StudySummary sample_with_default_twin() {
    StudySummary s = sample_summary();
    Evaluation twin = *s.default_evaluation;
    twin.route = Route::parse("-fgcse-sm=on");
    twin.phase = "fast";
    twin.same_as = "(default)";
    s.evaluations.push_back(twin);
    return s;
}

}  // namespace routetune::testing
