// Sample study records for the store tests of every backend, and field-by-field comparisons
// (NaN equal to NaN).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "store/study_store.hpp"

namespace routetune::testing {

/// A header with every field set (seed at its maximum).
inline StudyHeader sample_header() {
    StudyHeader header;
    header.name = "matmul";
    header.spec_sha256 = std::string(64, 'a');
    header.spec_path = "/work/examples/matmul/spec.toml";
    header.expression = "-O=[2|3] -funroll-loops=[on|off]";
    header.mode = "mixed";
    header.seed = 18446744073709551615ull;
    header.fingerprint_json = R"({"cpu.model":"X","os.kernel":"6.1"})";
    header.tool_version = "0.1.0";
    header.command_line = "routetune tune spec.toml --search mixed";
    header.user = "ann";
    header.host = "box";
    header.created_at = "2026-11-29T23:00:00Z";
    return header;
}

/// An evaluation with two cases, a NaN loss, an infinite median, paired rounds, run costs, answered
/// by a twin (same_as).
inline Evaluation sample_evaluation(const std::string& route_text, Status status = Status::Ok) {
    Evaluation evaluation;
    evaluation.route = Route::parse(route_text);
    evaluation.phase = "fast";
    evaluation.status = status;
    evaluation.message = "case 'b': loss 0.5 > 1e-06";
    evaluation.build_s = 1.25;
    evaluation.build_log_tail = "warning: unused variable\n\xe2\x9c\x93 done";
    evaluation.artifact_sha256 = std::string(64, 'f');
    evaluation.artifact_bytes = 5000000000ull;
    evaluation.artifact_path = "/cache/artifacts/abc";
    evaluation.timing = {{0.1, 0.30000000000000004, 1e-9}, 0.1, 0.05, 0.2};
    evaluation.paired = {{0.2, 0.30000000000000004, 1e-9}, {0.1, 0.25, 2e-9}};
    evaluation.run_first_s = 3.6000000000000001;
    evaluation.run_repeat_s = 0.55500000000000005;
    evaluation.started_at = "2026-11-29T23:00:01Z";
    evaluation.finished_at = "2026-11-29T23:00:02Z";
    evaluation.same_as = "-O=2 -funroll-loops=on";
    CaseResult a;
    a.name = "a";
    a.status = Status::Ok;
    a.loss = 0;
    a.stderr_tail = "";
    a.timing = {{0.05, 0.06}, 0.055, 0.05, 0.06};
    CaseResult b;
    b.name = "b";
    b.status = Status::RunCrashed;
    b.exit_code = -1;
    b.signal = 11;
    b.loss = std::numeric_limits<double>::quiet_NaN();
    b.stderr_tail = "Segmentation fault";
    b.timing = {{}, std::numeric_limits<double>::infinity(), 0, 0};
    evaluation.cases = {a, b};
    return evaluation;
}

/// Equal, or both NaN.
inline void expect_same_double(double expected, double actual) {
    if (std::isnan(expected)) EXPECT_TRUE(std::isnan(actual)) << actual;
    else EXPECT_EQ(expected, actual);
}

/// Equal timing summaries.
inline void expect_same_timing(const TimingSummary& expected, const TimingSummary& actual) {
    EXPECT_EQ(expected.samples_s, actual.samples_s);
    expect_same_double(expected.median_s, actual.median_s);
    expect_same_double(expected.ci_low_s, actual.ci_low_s);
    expect_same_double(expected.ci_high_s, actual.ci_high_s);
}

/// Equal evaluations, field by field.
inline void expect_same(const Evaluation& expected, const Evaluation& actual) {
    EXPECT_EQ(expected.route, actual.route);
    EXPECT_EQ(expected.phase, actual.phase);
    EXPECT_EQ(expected.status, actual.status);
    EXPECT_EQ(expected.message, actual.message);
    EXPECT_EQ(expected.build_s, actual.build_s);
    EXPECT_EQ(expected.build_log_tail, actual.build_log_tail);
    EXPECT_EQ(expected.artifact_sha256, actual.artifact_sha256);
    EXPECT_EQ(expected.artifact_bytes, actual.artifact_bytes);
    EXPECT_EQ(expected.artifact_path, actual.artifact_path);
    expect_same_timing(expected.timing, actual.timing);
    EXPECT_EQ(expected.paired.default_s, actual.paired.default_s);
    EXPECT_EQ(expected.paired.candidate_s, actual.paired.candidate_s);
    EXPECT_EQ(expected.run_first_s, actual.run_first_s);
    EXPECT_EQ(expected.run_repeat_s, actual.run_repeat_s);
    EXPECT_EQ(expected.started_at, actual.started_at);
    EXPECT_EQ(expected.finished_at, actual.finished_at);
    EXPECT_EQ(expected.same_as, actual.same_as);
    ASSERT_EQ(expected.cases.size(), actual.cases.size());
    for (std::size_t i = 0; i < expected.cases.size(); ++i) {
        EXPECT_EQ(expected.cases[i].name, actual.cases[i].name);
        EXPECT_EQ(expected.cases[i].status, actual.cases[i].status);
        EXPECT_EQ(expected.cases[i].exit_code, actual.cases[i].exit_code);
        EXPECT_EQ(expected.cases[i].signal, actual.cases[i].signal);
        expect_same_double(expected.cases[i].loss, actual.cases[i].loss);
        EXPECT_EQ(expected.cases[i].stderr_tail, actual.cases[i].stderr_tail);
        expect_same_timing(expected.cases[i].timing, actual.cases[i].timing);
    }
}

/// After an upgrade of a store holding old_row (recorded before the paired and run cost columns
/// existed): it reads back unpaired and without run costs, and a row recorded now reads back whole.
inline void expect_old_row_unpaired_and_new_row_paired(StudyStore& store, Evaluation old_row) {
    old_row.paired = {};
    old_row.run_first_s = old_row.run_repeat_s = 0;
    Evaluation new_row = sample_evaluation("-O=3");
    store.record(new_row);
    auto all = store.evaluations();
    ASSERT_EQ(all.size(), 2u);
    expect_same(old_row, all[0]);
    expect_same(new_row, all[1]);
}

}  // namespace routetune::testing
