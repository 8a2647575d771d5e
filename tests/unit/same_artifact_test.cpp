// One answer per artifact (docs/design.md, "Same artifact, same answer"), driven through the
// scheduler in simulated time: a candidate whose build gives an artifact already measured, run
// the same way, is not run; it carries same_as and its twin's figures, with one measurement at
// a time, on lanes (its twin still measuring) and in a resumed study. The fake compiler's
// scripted `artifact` lets two routes build the same bytes; runs are counted by the artifact
// they ran (the fake answers a run by the artifact's contents).
#include "study/same_artifact.hpp"

#include <gtest/gtest.h>

#include <map>

#include "eval/run_identity.hpp"
#include "study/selection.hpp"
#include "unit/scheduler_harness.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

// How many runs each artifact had, by its contents ("" is the default route's).
std::map<std::string, std::size_t> runs_by_artifact(const fake::CommandRunner& runner) {
    std::map<std::string, std::size_t> runs;
    for (const auto& call : runner.calls())
        if (!call.build) ++runs[call.flags];
    return runs;
}

std::set<std::string> measured_routes(const std::vector<Interval>& measurements) {
    std::set<std::string> routes;
    for (const auto& m : measurements) routes.insert(m.route);
    return routes;
}

Evaluation ok_evaluation(const char* route, double median_s) {
    Evaluation e;
    e.route = Route::parse(route);
    e.status = Status::Ok;
    e.timing = summarize({median_s, median_s, median_s});
    return e;
}

void expect_same_figures(const Evaluation& a, const Evaluation& b) {
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.timing.samples_s, b.timing.samples_s);
    EXPECT_DOUBLE_EQ(a.timing.median_s, b.timing.median_s);
    EXPECT_DOUBLE_EQ(a.timing.ci_low_s, b.timing.ci_low_s);
    EXPECT_DOUBLE_EQ(a.timing.ci_high_s, b.timing.ci_high_s);
    ASSERT_EQ(a.cases.size(), b.cases.size());
    for (std::size_t i = 0; i < a.cases.size(); ++i) EXPECT_EQ(a.cases[i].timing.samples_s, b.cases[i].timing.samples_s);
}

TEST_F(SchedulerHarness, AnArtifactMeasuredBeforeAnswersItsTwinsWhichAreNeverRun) {
    start(kSixCandidates, SchedulerOptions{3, 1, false}, routes_budget(100));
    bench.runner.routes["-a=1"].artifact = "";  // the default's bytes
    bench.runner.routes["-b=on"].artifact = "";
    bench.runner.routes["-a=2"].artifact = "-a=2";
    bench.runner.routes["-a=3"].artifact = "-a=2";  // -a=2's bytes
    bench.runner.fallback.run_times = {0.1, 0.3, 0.2, 0.15};
    ASSERT_TRUE(run_study());
    ASSERT_EQ(committed_routes(), (std::set<std::string>{"", "-a=1", "-a=2", "-a=3", "-b=on"}));
    int runs = bench.spec.timing.warmup + bench.spec.timing.repeats;
    auto runs_of = runs_by_artifact(bench.runner);
    EXPECT_EQ(runs_of[""], static_cast<std::size_t>(runs)) << "the default's artifact is measured once, for the default";
    EXPECT_EQ(runs_of["-a=2"], static_cast<std::size_t>(runs)) << "-a=2's artifact is measured once, for -a=2";
    EXPECT_EQ(runs_of.size(), 2u);
    EXPECT_EQ(measured_routes(of_kind(false)), (std::set<std::string>{"", "-a=2"}));
    const Evaluation* d = committed("");
    for (const char* twin : {"-a=1", "-b=on"}) {
        SCOPED_TRACE(twin);
        EXPECT_EQ(committed(twin)->same_as, "(default)");
        expect_same_figures(*committed(twin), *d);
        EXPECT_FALSE(ledger->history().beats_default(*ledger->history().find(Route::parse(twin))));
    }
    EXPECT_EQ(committed("-a=3")->same_as, "-a=2");
    expect_same_figures(*committed("-a=3"), *committed("-a=2"));
    EXPECT_EQ(committed("-a=2")->same_as, "") << "the measured one names no twin";
    EXPECT_EQ(committed("")->same_as, "");
    for (const auto& stored : store->evaluations())
        if (stored.route.to_string() == "-a=3") EXPECT_EQ(stored.same_as, "-a=2") << "same_as is stored";
}

TEST_F(SchedulerHarness, OnLanesATwinStillMeasuringAnswersTheCandidateThatWaitedForIt) {
    use_reported_timing();
    start(kSixCandidates, SchedulerOptions{4, 2, true}, routes_budget(100));
    bench.runner.fallback.build_s = 0.1;
    bench.runner.fallback.run_s = 1;
    bench.runner.routes["-a=2"].artifact = "-a=2";
    bench.runner.routes["-a=3"].artifact = "-a=2";  // built beside -a=2, ready while -a=2 measures
    bench.runner.routes["-b=on"].artifact = "";
    ASSERT_TRUE(run_study());
    ASSERT_EQ(committed_routes().size(), 5u);
    auto runs_of = runs_by_artifact(bench.runner);
    EXPECT_EQ(runs_of["-a=2"], static_cast<std::size_t>(bench.spec.timing.repeats)) << "measured once, on one lane";
    EXPECT_EQ(runs_of[""], static_cast<std::size_t>(bench.spec.timing.repeats));
    EXPECT_EQ(measured_routes(of_kind(false)), (std::set<std::string>{"", "-a=1", "-a=2"}));
    EXPECT_EQ(committed("-a=3")->same_as, "-a=2");
    expect_same_figures(*committed("-a=3"), *committed("-a=2"));
    EXPECT_EQ(committed("-b=on")->same_as, "(default)");
}

TEST_F(SchedulerHarness, AResumedStudysMeasurementsAnswerTheirTwins) {
    Evaluation d;
    d.status = Status::Ok;
    d.artifact_sha256 = sha256_hex("");  // what the fake compiler writes for the default route
    d.timing = summarize({0.1, 0.11, 0.12});
    StudyStore::open(bench.paths.cache)->record(d);
    start(kSixCandidates, SchedulerOptions{2, 1, false}, routes_budget(100));
    bench.runner.routes["-a=3"].artifact = "";
    ASSERT_TRUE(run_study());
    EXPECT_EQ(runs_by_artifact(bench.runner).count(""), 0u) << "neither the default nor its twin ran";
    ASSERT_NE(committed("-a=3"), nullptr);
    EXPECT_EQ(committed("-a=3")->same_as, "(default)");
    EXPECT_EQ(committed("-a=3")->timing.samples_s, d.timing.samples_s);
}

TEST_F(SchedulerHarness, ATwinThatFailedItsRunsAnswersWithItsFailure) {
    start(kSixCandidates, SchedulerOptions{1, 1, false}, routes_budget(100));
    bench.runner.routes["-a=1"].run_exit = 3;
    bench.runner.routes["-a=1"].artifact = "-a=1";
    bench.runner.routes["-a=2"].artifact = "-a=1";
    ASSERT_TRUE(run_study());
    EXPECT_EQ(committed("-a=2")->status, Status::RunFailed);
    EXPECT_EQ(committed("-a=2")->same_as, "-a=1");
    EXPECT_EQ(committed("-a=2")->message, committed("-a=1")->message);
    EXPECT_EQ(runs_by_artifact(bench.runner)["-a=1"], 1u) << "the failing run is not repeated for the twin";
}

TEST_F(SchedulerHarness, AtTheTimeLimitABuiltTwinIsAnsweredNotLeftPending) {
    Budget budget = routes_budget(100);
    budget.time_limit_s = 4.5;  // builds start at 0, 1.3, 2.6 and 3.9 s; the last ends at 4.9 s
    start(kSixCandidates, SchedulerOptions{1, 1, false}, budget);
    executor->cancellable = false;
    bench.runner.routes["-a=3"].artifact = "";
    ASSERT_TRUE(run_study());
    ASSERT_EQ(of_kind(true).back().route, "-a=3");
    ASSERT_NE(committed("-a=3"), nullptr) << "built past the limit: its answer costs no run";
    EXPECT_EQ(committed("-a=3")->same_as, "(default)");
    EXPECT_EQ(measured_routes(of_kind(false)).count("-a=3"), 0u);
}

// An adapter whose routes travel as an environment value (as Inductor's do): one artifact.
class EnvironmentAdapter : public fake::FlagAdapter {
public:
    using FlagAdapter::FlagAdapter;
    AppliedRoute apply(const Route& route, const Catalog& catalog) const override {
        AppliedRoute applied = FlagAdapter::apply(route, catalog);
        applied.environment["ROUTE"] = route.to_string();
        applied.flags.clear();
        return applied;
    }
};

TEST(SameArtifact, OneArtifactUnderTwoEnvironmentsIsTwoMeasurements) {
    fake::StudyBench bench;
    EnvironmentAdapter adapter(fake::bench_catalog());
    Evaluator evaluator(bench.spec, adapter, bench.catalog, bench.paths, bench.runner);
    Evaluation measured;
    measured.route = Route::parse("-a=1");
    measured.status = Status::Ok;
    measured.artifact_sha256 = sha256_hex("same bytes");
    Evaluation other = measured;
    other.route = Route::parse("-a=2");
    EXPECT_NE(evaluator.run_identity(measured), evaluator.run_identity(other)) << "the environment differs";
    Evaluation again = measured;
    again.timing = summarize({1, 2, 3});
    EXPECT_EQ(evaluator.run_identity(measured), evaluator.run_identity(again));
    Evaluation unbuilt = measured;
    unbuilt.artifact_sha256.clear();
    EXPECT_EQ(evaluator.run_identity(unbuilt), "");

    auto store = StudyStore::open(bench.paths.cache);
    ArtifactKeeper keeper(bench.paths, true, 3, 0.02);
    StudyLedger ledger(*store, keeper, bench.clock, 0.02, 0, [&](const Evaluation& e) { return evaluator.run_identity(e); });
    ledger.commit(measured);
    EXPECT_EQ(ledger.measured_twin(evaluator.run_identity(other)), nullptr);
    ASSERT_NE(ledger.measured_twin(evaluator.run_identity(again)), nullptr);
    EXPECT_EQ(ledger.measured_twin(evaluator.run_identity(again))->route, measured.route);
    EXPECT_EQ(ledger.measured_twin(""), nullptr);
}

TEST(SameArtifact, TheRunIdentityCoversArtifactEnvironmentAndFiles) {
    AppliedRoute applied;
    applied.environment = {{"A", "1"}};
    applied.files = {{"config.json", "{}"}};
    std::string base = run_identity("abc", applied);
    EXPECT_EQ(base, run_identity("abc", applied));
    EXPECT_NE(base, run_identity("abd", applied));
    AppliedRoute env = applied;
    env.environment["A"] = "2";
    EXPECT_NE(base, run_identity("abc", env));
    AppliedRoute file = applied;
    file.files[0].content = "{ }";
    EXPECT_NE(base, run_identity("abc", file));
    AppliedRoute flags = applied;
    flags.flags = {"-O3"};
    EXPECT_EQ(base, run_identity("abc", flags)) << "flags made the artifact; they do not run";
    AppliedRoute shifted;  // no field boundary can be moved: "A"="12" is not "A1"="2"
    shifted.environment = {{"A1", "2"}};
    AppliedRoute unshifted;
    unshifted.environment = {{"A", "12"}};
    EXPECT_NE(run_identity("abc", shifted), run_identity("abc", unshifted));
    EXPECT_EQ(run_identity("", applied), "");
}

TEST(SameArtifact, OnlyAnArtifactThatRanItselfAnswersOthers) {
    Evaluation e;
    e.artifact_sha256 = "abc";
    for (Status s : {Status::Ok, Status::Inaccurate, Status::RunFailed, Status::RunCrashed, Status::RunTimeout}) {
        e.status = s;
        EXPECT_TRUE(measured_itself(e)) << to_string(s);
    }
    for (Status s : {Status::Pending, Status::BuildFailed, Status::BuildCrashed, Status::BuildTimeout, Status::Abandoned}) {
        e.status = s;
        EXPECT_FALSE(measured_itself(e)) << to_string(s);
    }
    e.status = Status::Ok;
    e.same_as = "(default)";
    EXPECT_FALSE(measured_itself(e)) << "an answer is not a measurement";
    e.same_as.clear();
    e.artifact_sha256.clear();
    EXPECT_FALSE(measured_itself(e));
}

TEST(SameArtifact, AnAnswerKeepsWhatTheCandidateDidAndTakesTheTwinsFigures) {
    Evaluation twin;
    twin.route = Route::parse("-a=2");
    twin.status = Status::Inaccurate;
    twin.message = "case a: loss 1 over 0";
    twin.timing = summarize({1, 2, 3});
    twin.paired = {{1, 2, 3}, {1.5, 2.5, 3.5}};
    twin.run_first_s = 3.6;
    twin.run_repeat_s = 0.6;
    twin.cases = {CaseResult{"a", Status::Inaccurate, 0, 0, 1.0, "", summarize({1, 2, 3})}};
    Evaluation built;
    built.route = Route::parse("-a=3");
    built.phase = "fast";
    built.build_s = 4.5;
    built.artifact_sha256 = "abc";
    built.artifact_path = "/w/artifact";
    built.started_at = "2026-12-01T00:00:00Z";
    Evaluation answer = same_as_twin(built, twin);
    EXPECT_EQ(answer.route, built.route);
    EXPECT_EQ(answer.phase, "fast");
    EXPECT_DOUBLE_EQ(answer.build_s, 4.5);
    EXPECT_EQ(answer.artifact_path, "/w/artifact");
    EXPECT_EQ(answer.started_at, built.started_at);
    EXPECT_EQ(answer.status, Status::Inaccurate);
    EXPECT_EQ(answer.message, twin.message);
    EXPECT_EQ(answer.timing.samples_s, twin.timing.samples_s);
    EXPECT_EQ(answer.paired.default_s, twin.paired.default_s) << "the twin's paired rounds are its figure";
    EXPECT_EQ(answer.paired.candidate_s, twin.paired.candidate_s);
    EXPECT_DOUBLE_EQ(answer.run_first_s, 3.6) << "a confirmation of this route is priced at the twin's runs";
    EXPECT_DOUBLE_EQ(answer.run_repeat_s, 0.6);
    ASSERT_EQ(answer.cases.size(), 1u);
    EXPECT_DOUBLE_EQ(answer.cases[0].loss, 1.0);
    EXPECT_EQ(answer.same_as, "-a=2");
    EXPECT_FALSE(answer.finished_at.empty());
    Evaluation default_twin = twin;
    default_twin.route = Route{};
    EXPECT_EQ(same_as_twin(built, default_twin).same_as, "(default)");
}

TEST(SameArtifact, ATwinsAnswerIsNeverConfirmedOnItsOwn) {
    Evaluation d = ok_evaluation("", 1.0);
    Evaluation fast = ok_evaluation("-a=1", 0.5);
    Evaluation twin = same_as_twin(fast, fast);
    twin.route = Route::parse("-a=2");
    auto picked = confirmation_candidates({d, fast, twin}, d, 0.02, 3);
    ASSERT_EQ(picked.size(), 1u) << "the twin's measurement stands for it";
    EXPECT_EQ(picked[0].route, fast.route);
}

TEST(SameArtifact, AnAnswersFolderGoesItsTwinsHoldsTheArtifact) {
    fake::StudyBench bench;
    ArtifactKeeper keeper(bench.paths, false, 3, 0.02);
    Evaluation d = ok_evaluation("", 1.0);
    Evaluation twin = ok_evaluation("-a=1", 0.5);
    Evaluation answer = same_as_twin(twin, twin);
    answer.route = Route::parse("-a=2");
    for (const Route& route : {twin.route, answer.route}) {
        std::filesystem::create_directories(bench.paths.workdir(route.hash()));
        ASSERT_TRUE(write_file(bench.paths.workdir(route.hash()) / "artifact", "x"));
    }
    keeper.after_evaluation(twin, {d}, d);
    keeper.after_evaluation(answer, {d, twin}, d);
    EXPECT_TRUE(std::filesystem::exists(bench.paths.workdir(twin.route.hash()) / "artifact"));
    EXPECT_FALSE(std::filesystem::exists(bench.paths.workdir(answer.route.hash()))) << "the same bytes are kept once";
}

}  // namespace
}  // namespace routetune
