#include "report/summary_json.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "routetune/error.hpp"
#include "unit/sample_summary.hpp"

namespace routetune {
namespace {

using Json = nlohmann::ordered_json;

const char* const kExpected = R"({
  "study": "matmul", "spec": "/specs/matmul.toml", "search": "fast",
  "expression": "-O=[2|3] -funroll-loops=[on|off]", "metric": "rel_l2",
  "fingerprint": {"compiler": "gcc 12.2.0", "cpu": "x86_64"},
  "default": {"route": "", "status": "ok", "time": 0.02, "time_ci95": [0.019, 0.021]},
  "winner": {"route": "-O=3", "route_changes": {"-O": "3"}, "speedup": 1.25, "speedup_ci95": [1.2, 1.3],
             "artifact": ".routetune/artifacts/ab.bin"},
  "minimal": null,
  "outcome": "improved",
  "message": "",
  "counts": {"ok": 3, "inaccurate": 1, "route_conflict": 0, "build_failed": 1, "build_crashed": 0, "build_timeout": 0,
             "run_failed": 0, "run_crashed": 0, "run_timeout": 0, "abandoned": 0, "pending": 1, "total": 6},
  "classes": [],
  "evaluations": [
    {"route": "", "route_changes": {}, "phase": "default", "status": "ok", "time": 0.02, "time_ci95": [0.019, 0.021],
     "speedup": 1.0, "speedup_ci95": [0.9523809523809523, 1.0526315789473684], "speedup_paired": false, "confirmed": false,
     "build_s": 0.5, "loss": {"typical": 0.0}, "message": ""},
    {"route": "-funroll-loops=on", "route_changes": {"-funroll-loops": "on"}, "phase": "fast", "status": "ok", "time": 0.025,
     "time_ci95": [0.024, 0.026], "speedup": 0.7999999999999999,
     "speedup_ci95": [0.7692307692307693, 0.8333333333333334], "speedup_paired": false, "confirmed": false, "build_s": 0.5, "loss": {"typical": 0.0}, "message": ""},
    {"route": "-O=3", "route_changes": {"-O": "3"}, "phase": "fast", "status": "ok", "time": 0.016, "time_ci95": [0.0155, 0.0165],
     "speedup": 1.25, "speedup_ci95": [1.2121212121212122, 1.2903225806451613], "speedup_paired": false, "confirmed": true,
     "build_s": 0.75, "loss": {"typical": 1e-09}, "message": ""},
    {"route": "-ffast-math=on", "route_changes": {"-ffast-math": "on"}, "phase": "fast", "status": "inaccurate", "time": null,
     "time_ci95": null, "speedup": null, "speedup_ci95": null, "speedup_paired": false, "confirmed": false, "build_s": 0.25, "loss": {"typical": null, "edge": null},
     "loss_nonfinite": {"typical": "inf", "edge": "nan"},
     "message": "case edge: loss nan over threshold 1e-06"},
    {"route": "-march=native", "route_changes": {"-march": "native"}, "phase": "fast", "status": "build_failed", "time": null,
     "time_ci95": null, "speedup": null, "speedup_ci95": null, "speedup_paired": false, "confirmed": false, "build_s": 0.125, "loss": {}, "message": "gcc: error: bad value\nfor -march"},
    {"route": "-O=2", "route_changes": {"-O": "2"}, "phase": "fast", "status": "pending", "time": null, "time_ci95": null,
     "speedup": null, "speedup_ci95": null, "speedup_paired": false, "confirmed": false, "build_s": 0.0, "loss": {}, "message": ""}
  ],
  "confirmations": [
    {"route": "-O=3", "speedup": 1.25, "speedup_ci95": [1.2, 1.3], "time": 0.016,
     "time_ci95": [0.0158, 0.0162], "default_time": 0.02, "default_time_ci95": [0.0195, 0.0205]}
  ],
  "artifact_bytes": 4096, "binary_bytes": 0, "output_bytes": 0, "wall_s": 12.5, "candidates_total": 8,
  "time": {"limit_s": null, "wall_s": 12.5, "within_limit": null, "confirmation_reserve_s": 0.0, "confirmation_s": 0.0,
           "confirmation_deadline_s": null},
  "knob_defaults": {},
  "notes": ["a loss is null when it was not a finite number (NaN or infinite, which always fails the accuracy check); the evaluation's loss_nonfinite names which: nan, inf or -inf",
            "route_changes: the knobs in which a route differs from the default route, knob: value (null: left unset where the default route assigns it); a knob whose default is not in knob_defaults (each knob's value at the base flags, where known) always counts as a change"]
})";

// Each timed evaluation's speedup against the default: unpaired here, the default's median over
// the route's median and over the ends of its interval.
void expect_unpaired_speedups(Json& expected) {
    auto put = [&](int i, double median, double low, double high) {
        expected["evaluations"][i]["speedup"] = 0.02 / median;
        expected["evaluations"][i]["speedup_ci95"] = Json::array({0.02 / high, 0.02 / low});
    };
    put(0, 0.02, 0.019, 0.021);
    put(1, 0.025, 0.024, 0.026);
    put(2, 0.016, 0.0155, 0.0165);
}

TEST(SummaryJson, MatchesTheDesignLayoutExactly) {
    Json actual = summary_to_json(testing::sample_summary(), "rel_l2");
    Json expected = Json::parse(kExpected);
    expect_unpaired_speedups(expected);
    EXPECT_EQ(actual, expected) << actual.dump(2);
    EXPECT_EQ(actual.dump(-1), expected.dump(-1));
}

// The speedup is the default's median over the evaluation's (0.02 / 0.016 here); a twin's answer
// carries same_as and its twin's figures, so a twin of the default is exactly 1, never a gain.
TEST(SummaryJson, EveryEvaluationHasItsSpeedupAndATwinNamesWhatItEquals) {
    StudySummary s = testing::sample_with_default_twin();
    Json json = summary_to_json(s, "");
    const Json& fast = json.at("evaluations").at(2);
    EXPECT_DOUBLE_EQ(fast.at("speedup").get<double>(), 0.02 / 0.016);
    EXPECT_TRUE(fast.at("confirmed").get<bool>());
    EXPECT_FALSE(fast.contains("same_as")) << "absent when unique";
    const Json& same = json.at("evaluations").back();
    EXPECT_EQ(same.at("same_as"), "(default)");
    EXPECT_EQ(same.at("speedup").get<double>(), 1.0);
    EXPECT_FALSE(same.at("confirmed").get<bool>());
    EXPECT_EQ(summary_from_json(json).evaluations.back().same_as, "(default)") << "read back";
}

TEST(SummaryJson, TextIsIndentedAndEndsInNewline) {
    std::string text = summary_json_text(testing::sample_summary(), "rel_l2");
    ASSERT_GT(text.size(), 20u);
    EXPECT_EQ(text.substr(0, 45), "{\n  \"schema_version\": 1,\n  \"study\": \"matmul\",");
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(summary_json_text(testing::sample_summary(), "", -1).find('\n'),
              summary_json_text(testing::sample_summary(), "", -1).size() - 1);
}

TEST(SummaryJson, CountsEveryStatusIncludingZeros) {
    StudySummary s;
    s.study = "empty";
    for (Status status : {Status::Ok, Status::RunCrashed, Status::RunCrashed, Status::BuildTimeout,
                          Status::RunTimeout, Status::BuildCrashed, Status::RunFailed}) {
        Evaluation e;
        e.status = status;
        s.evaluations.push_back(e);
    }
    Json counts = summary_to_json(s)["counts"];
    Json expected = Json::parse(R"({"ok": 1, "inaccurate": 0, "route_conflict": 0, "build_failed": 0, "build_crashed": 1,
        "build_timeout": 1, "run_failed": 1, "run_crashed": 2, "run_timeout": 1, "abandoned": 0, "pending": 0,
        "total": 7})");
    EXPECT_EQ(counts, expected) << counts.dump();
}

TEST(SummaryJson, NoDefaultAndNoWinnerAreNull) {
    StudySummary s;
    s.study = "x";
    s.outcome = Outcome::NoEligibleRoute;
    Json json = summary_to_json(s);
    EXPECT_TRUE(json["default"].is_null());
    EXPECT_TRUE(json["winner"].is_null());
    EXPECT_EQ(json["outcome"], "no-eligible-route");
    EXPECT_EQ(json["metric"], "");
}

TEST(SummaryJson, NonFiniteNumbersAreNullAndLossesSayWhich) {
    StudySummary s;
    s.study = "x";
    Evaluation e;
    e.status = Status::Inaccurate;
    e.build_s = std::nan("");
    e.cases = {testing::case_result("a", -INFINITY), testing::case_result("b", NAN),
               testing::case_result("c", 0.5)};
    s.evaluations = {e};
    s.wall_s = INFINITY;
    Json json = summary_to_json(s);
    EXPECT_EQ(json["evaluations"][0]["loss"], Json::parse(R"({"a": null, "b": null, "c": 0.5})"));
    EXPECT_EQ(json["evaluations"][0]["loss_nonfinite"], Json::parse(R"({"a": "-inf", "b": "nan"})"));
    EXPECT_TRUE(json["evaluations"][0]["build_s"].is_null());
    EXPECT_TRUE(json["wall_s"].is_null());
    std::string text = json.dump();
    EXPECT_EQ(text.find("Infinity"), std::string::npos);
    EXPECT_EQ(text.find("NaN\""), std::string::npos);
    EXPECT_NE(json["notes"][0].get<std::string>().find("null"), std::string::npos);
    StudySummary back = summary_from_json(json);
    EXPECT_TRUE(std::isinf(back.evaluations[0].cases[0].loss) && back.evaluations[0].cases[0].loss < 0);
    EXPECT_TRUE(std::isnan(back.evaluations[0].cases[1].loss));
}

TEST(SummaryJson, OlderSummariesWithLossStringsStillRead) {
    Json json = summary_to_json(testing::sample_summary());
    json["evaluations"][3].erase("loss_nonfinite");
    json["evaluations"][3]["loss"] = Json::parse(R"({"typical": "Infinity", "edge": "NaN"})");
    StudySummary back = summary_from_json(json);
    EXPECT_TRUE(std::isinf(back.evaluations[3].cases[0].loss));
    EXPECT_TRUE(std::isnan(back.evaluations[3].cases[1].loss));
}

TEST(SummaryJson, TheTimeLimitWarmProcessesCodeAndBuildSpreadRoundTrip) {
    StudySummary original = testing::sample_summary();
    original.time_limit_s = 190;
    original.wall_s = 185.5;
    original.confirmation_reserve_s = 41;
    original.confirmation_s = 38.25;
    original.confirmation_deadline_s = 187.5;
    original.default_build_medians_s = {0.00118, 0.00204, 0.00139};
    original.confirmations.front().build_medians_s = {0.0007, 0.00068, 0.00071};
    original.warm_processes = {WarmProcessReport{"0", 4242, 31, 12, 0.00121, std::nullopt, "died while running case 'a'",
                                                 0.34, 12.5}};
    original.code_identities = {CodeIdentity{Route::parse("-O=3"), std::string(64, 'a'), std::string(64, 'c'), {"dynamo", "captured"},
                                             {"its capture was refused: ran code 2f54, but its build produced 30ac"}}};
    Json first = summary_to_json(original, "rel_l2");
    EXPECT_EQ(first["time"], Json::parse(R"({"limit_s": 190.0, "wall_s": 185.5, "within_limit": true,
        "confirmation_reserve_s": 41.0, "confirmation_s": 38.25, "confirmation_deadline_s": 187.5})"));
    EXPECT_NEAR(first["default_build_spread"].get<double>(), 0.00204 / 0.00118 - 1, 1e-12);
    EXPECT_NEAR(first["confirmations"][0]["build_spread"].get<double>(), 0.00071 / 0.00068 - 1, 1e-12);
    EXPECT_TRUE(first["warm_processes"][0]["default_last_s"].is_null()) << "a process that died measured nothing last";
    EXPECT_EQ(first["warm_processes"][0]["request_median_s"], 0.34);
    EXPECT_EQ(first["warm_processes"][0]["request_max_s"], 12.5);
    EXPECT_EQ(first["code_identities"][0]["paths"], Json::array({"dynamo", "captured"}));
    EXPECT_EQ(first["code_identities"][0]["why"], Json::array({"its capture was refused: ran code 2f54, but its build produced 30ac"}));
    StudySummary back = summary_from_json_text(first.dump());
    EXPECT_EQ(summary_to_json(back, "rel_l2"), first);
    original.wall_s = 191;
    EXPECT_FALSE(summary_to_json(original, "rel_l2")["time"]["within_limit"].get<bool>());
}

TEST(SummaryJson, PairedRoundsGiveThePairedSpeedupAndReadBack) {
    StudySummary s = testing::sample_summary();
    s.evaluations[2].paired = {{0.02, 0.02, 0.02, 0.02, 0.02}, {0.02, 0.02, 0.016, 0.02, 0.025}};
    Json json = summary_to_json(s);
    const Json& fast = json["evaluations"][2];
    EXPECT_EQ(fast["route"], "-O=3");
    EXPECT_EQ(fast["speedup"], 1.0) << "the median of 1, 1, 1.25, 1, 0.8, not the medians' 1.25";
    EXPECT_EQ(fast["speedup_ci95"], Json::array({0.02 / 0.025, 0.02 / 0.016}));
    EXPECT_EQ(fast["speedup_paired"], true);
    EXPECT_EQ(fast["paired_rounds_s"]["candidate"], Json::array({0.02, 0.02, 0.016, 0.02, 0.025}));
    EXPECT_FALSE(json["evaluations"][1].contains("paired_rounds_s"));
    StudySummary back = summary_from_json(json);
    EXPECT_EQ(back.evaluations[2].paired.default_s, s.evaluations[2].paired.default_s);
    EXPECT_EQ(back.evaluations[2].paired.candidate_s, s.evaluations[2].paired.candidate_s);
    EXPECT_EQ(summary_to_json(back), json);
}

TEST(SummaryJson, RoundTripReproducesTheJson) {
    StudySummary original = testing::sample_summary();
    Json first = summary_to_json(original, "rel_l2");
    StudySummary back = summary_from_json_text(first.dump());
    EXPECT_EQ(summary_to_json(back, summary_metric(first)), first);
    EXPECT_EQ(summary_metric(first), "rel_l2");
    ASSERT_TRUE(back.default_evaluation.has_value());
    EXPECT_TRUE(back.default_evaluation->route.empty());
    EXPECT_EQ(back.default_evaluation->phase, "default");
    ASSERT_TRUE(back.winner.has_value());
    EXPECT_EQ(back.winner->route.to_string(), "-O=3");
    EXPECT_DOUBLE_EQ(back.winner->timing.median_s, 0.016);
    EXPECT_EQ(back.winner_artifact, ".routetune/artifacts/ab.bin");
    ASSERT_EQ(back.evaluations.size(), 6u);
    EXPECT_EQ(back.evaluations[3].status, Status::Inaccurate);
    ASSERT_EQ(back.evaluations[3].cases.size(), 2u);
    EXPECT_EQ(back.evaluations[3].cases[0].name, "typical");
    EXPECT_TRUE(std::isinf(back.evaluations[3].cases[0].loss));
    EXPECT_TRUE(std::isnan(back.evaluations[3].cases[1].loss));
    EXPECT_EQ(back.evaluations[4].message, "gcc: error: bad value\nfor -march");
    EXPECT_EQ(back.outcome, Outcome::Improved);
    EXPECT_EQ(back.candidates_total, 8u);
    EXPECT_EQ(back.artifact_bytes, 4096u);
    EXPECT_DOUBLE_EQ(back.wall_s, 12.5);
    EXPECT_EQ(back.fingerprint.at("cpu"), "x86_64");
}

TEST(SummaryJson, WhatTildeLeftOutIsWrittenAndReadBack) {
    StudySummary original = testing::sample_summary();
    EXPECT_FALSE(summary_to_json(original).contains("left_out"));
    original.left_out = {{"-march", "haswell", "enables avx2, which this CPU lacks"}, {"-mavx512f", "on", "this CPU lacks avx512f"}};
    Json json = summary_to_json(original, "rel_l2");
    ASSERT_EQ(json.at("left_out").size(), 2u);
    EXPECT_EQ(json.at("left_out").at(1), Json::parse(R"({"knob": "-mavx512f", "value": "on", "reason": "this CPU lacks avx512f"})"));
    StudySummary back = summary_from_json(json);
    ASSERT_EQ(back.left_out.size(), 2u);
    EXPECT_EQ(back.left_out[0].knob, "-march");
    EXPECT_EQ(back.left_out[0].value, "haswell");
    EXPECT_EQ(back.left_out[0].reason, "enables avx2, which this CPU lacks");
    EXPECT_EQ(summary_to_json(back, "rel_l2"), json);
}

TEST(SummaryJson, NullLossReadsAsNaN) {
    Json json = summary_to_json(testing::sample_summary());
    json["evaluations"][0]["loss"]["typical"] = nullptr;
    StudySummary back = summary_from_json(json);
    EXPECT_TRUE(std::isnan(back.evaluations[0].cases[0].loss));
}

TEST(SummaryJson, BadInputNamesTheKey) {
    Json json = summary_to_json(testing::sample_summary());
    json["evaluations"][2]["status"] = "fine";
    try {
        summary_from_json(json);
        FAIL() << "expected UsageError";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("summary.evaluations[2].status"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("run_timeout"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("route_conflict"), std::string::npos) << e.what();
    }
    json["evaluations"][2]["status"] = "route_conflict";
    EXPECT_EQ(summary_from_json(json).evaluations[2].status, Status::RouteConflict);
    Json missing = summary_to_json(testing::sample_summary());
    missing.erase("outcome");
    EXPECT_THROW(summary_from_json(missing), UsageError);
    EXPECT_THROW(summary_from_json_text("{not json"), UsageError);
}

TEST(StatusNames, EveryStatusRoundTrips) {
    const char* names[] = {"pending", "ok", "inaccurate", "route_conflict", "build_failed", "build_crashed",
                           "build_timeout", "run_failed", "run_crashed", "run_timeout", "abandoned"};
    for (const char* name : names) {
        auto status = status_from_string(name);
        ASSERT_TRUE(status.has_value()) << name;
        EXPECT_EQ(to_string(*status), name);
    }
    EXPECT_EQ(to_string(Status::BuildCrashed), "build_crashed");
    EXPECT_EQ(to_string(Status::RouteConflict), "route_conflict");
    EXPECT_EQ(status_names_text(), "pending, ok, inaccurate, route_conflict, build_failed, build_crashed, "
                                   "build_timeout, run_failed, run_crashed, run_timeout, abandoned");
    EXPECT_FALSE(status_from_string("OK").has_value());
    EXPECT_FALSE(status_from_string("").has_value());
}

TEST(OutcomeNames, EveryOutcomeRoundTrips) {
    EXPECT_EQ(to_string(Outcome::Improved), "improved");
    EXPECT_EQ(to_string(Outcome::DefaultStays), "default-stays");
    EXPECT_EQ(to_string(Outcome::NoEligibleRoute), "no-eligible-route");
    EXPECT_EQ(to_string(Outcome::Unfinished), "unfinished");
    for (Outcome o : {Outcome::Improved, Outcome::DefaultStays, Outcome::NoEligibleRoute, Outcome::Unfinished}) {
        EXPECT_EQ(outcome_from_string(to_string(o)), o);
    }
    EXPECT_FALSE(outcome_from_string("default_stays").has_value());
}

}  // namespace
}  // namespace routetune
