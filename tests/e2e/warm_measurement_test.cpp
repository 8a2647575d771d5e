// End-to-end: `[run] server`, the warm measurement process (docs/measurement-protocol.md), with
// python/routetune_measure.py over tests/fakes/fake_warm_workload.py: each request runs the
// fake compiler's artifact and reports the artifact's sha256 as the code it ran. Builds stay
// processes of their own; runs go to one long-lived process. A candidate that kills, corrupts,
// confuses or hangs the process is a failed candidate (run_crashed or run_timeout, with a
// message) and the process is replaced; one that merely fails leaves it serving. Every
// process re-measures the default before its first candidate and when it is closed, and a
// build whose runs report different code fails.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "e2e/cli_harness.hpp"
#include "util/files.hpp"
#include "util/sha256.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

class WarmMeasurement : public ::testing::Test {
protected:
    void SetUp() override {
        if (find_executable("python3").empty()) GTEST_SKIP() << "no python3 installed";
        specs = scratch_specs();
        std::string spec = read_file(specs / "fake_timed.toml").value_or("");
        const std::string run = "timeout_s = 10\nrelative_timeout = 0\n";
        const std::string timing = "warmup = 1\nrepeats = 5\n";
        ASSERT_NE(spec.find(run), std::string::npos) << "fake_timed.toml's [run] changed";
        ASSERT_NE(spec.find(timing), std::string::npos) << "fake_timed.toml's [timing] changed";
        spec.replace(spec.find(run), run.size(),
                     "timeout_s = 5\nrelative_timeout = 0\nserver = [\"python3\", \"" + std::string(ROUTETUNE_SOURCE_DIR) +
                         "/python/routetune_measure.py\", \"{spec_dir}/../../fakes/fake_warm_workload.py\"]\n");
        spec.replace(spec.find(timing), timing.size(), "warmup = 0\nrepeats = 3\nconfirm_top = 1\nconfirm_rounds = 2\n");
        write_file(specs / "warm.toml", spec);
        log = specs / "warm.log";
    }

    json tune(std::map<std::string, std::string> env = {}, std::vector<std::string> more = {}) {
        env["FAKE_WARM_LOG"] = log.string();
        env["FAKE_JITTER"] = "0";
        std::vector<std::string> args{"tune", "warm.toml", "--json"};
        args.insert(args.end(), more.begin(), more.end());
        result = run_cli(args, specs, env);
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return json::parse(result.out.empty() ? "{}" : result.out);
    }

    // warm.toml with its one line `from` replaced by `to`, written as file (warm.toml itself or a
    // variant beside it).
    void vary_spec(const std::string& from, const std::string& to, const std::string& file) {
        std::string spec = read_file(specs / "warm.toml").value_or("");
        ASSERT_NE(spec.find(from), std::string::npos) << "warm.toml has no '" << from << "'";
        spec.replace(spec.find(from), from.size(), to);
        write_file(specs / file, spec);
    }

    static const json* evaluation(const json& summary, const std::string& route) {
        for (const auto& e : summary.at("evaluations")) {
            if (e.at("route") == route) return &e;
        }
        ADD_FAILURE() << route << " was not evaluated";
        return nullptr;
    }

    // The processes the log saw, in order of their first request.
    std::vector<std::string> pids() const {
        std::vector<std::string> seen;
        std::istringstream lines(read_file(log).value_or(""));
        for (std::string line; std::getline(lines, line);) {
            std::string pid = line.substr(0, line.find(' '));
            if (std::find(seen.begin(), seen.end(), pid) == seen.end()) seen.push_back(pid);
        }
        return seen;
    }

    fs::path specs;
    fs::path log;
    CliResult result;
};

TEST_F(WarmMeasurement, OneProcessMeasuresEveryCandidateRunningEachBuildsOwnCode) {
    json s = tune();
    EXPECT_EQ(s.at("outcome"), "improved") << result.err;
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
    EXPECT_EQ(pids().size(), 1u) << "every run in one process";
    ASSERT_EQ(s.at("warm_processes").size(), 1u) << s.dump(2);
    const json& process = s.at("warm_processes")[0];
    EXPECT_EQ(process.at("ended"), "closed");
    EXPECT_EQ(std::to_string(process.at("pid").get<long>()), pids().front());
    ASSERT_TRUE(process.at("default_first_s").is_number()) << "the default was not re-measured before the candidates";
    ASSERT_TRUE(process.at("default_last_s").is_number()) << "the default was not re-measured at the end";
    EXPECT_NEAR(process.at("default_first_s").get<double>(), 0.2, 1e-9) << "100 ms per case, two cases";
    EXPECT_NEAR(process.at("default_last_s").get<double>(), 0.2, 1e-9);
    // What a request cost, request to reply (the fake's runs report 100 ms but take a few).
    ASSERT_TRUE(process.at("request_median_s").is_number()) << process.dump();
    EXPECT_GT(process.at("request_median_s").get<double>(), 0.0) << process.dump();
    EXPECT_LT(process.at("request_median_s").get<double>(), 1.0) << process.dump();
    EXPECT_GE(process.at("request_max_s").get<double>(), process.at("request_median_s").get<double>());
    std::size_t candidates = s.at("evaluations").size() - 1;
    EXPECT_EQ(process.at("routes").get<std::size_t>(), candidates);
    std::set<std::string> routes;
    for (const auto& c : s.at("code_identities")) {
        routes.insert(c.at("route").get<std::string>());
        // The fake reports the artifact's own bytes as its code: a run of another build shows.
        EXPECT_EQ(c.at("code_sha256"), c.at("artifact_sha256")) << c.dump();
        // Each build ran at least twice (two cases), and the fake says which run was its first.
        EXPECT_EQ(c.at("paths"), json::array({"first run of the build", "a later run"})) << c.dump();
    }
    EXPECT_EQ(routes.size(), candidates + 1) << "every build measured, the default's too, has its code recorded";
    std::string first_candidate;
    std::istringstream lines(read_file(log).value_or(""));
    std::vector<std::string> order;
    for (std::string line; std::getline(lines, line);) order.push_back(line.substr(line.find(' ') + 1));
    ASSERT_GE(order.size(), 8u);
    auto first_other = std::find_if(order.begin(), order.end(), [](const std::string& r) { return r.rfind("-|", 0) != 0; });
    ASSERT_NE(first_other, order.end());
    ASSERT_GE(first_other - order.begin(), 8) << "the default's 3 rounds x 2 cases, then its check of 2 cases";
    EXPECT_EQ(order.back().substr(0, 2), "-|") << "the last runs are the default's closing check";
    CliResult report = run_cli({"report", ".routetune/fake_timed.sqlite", "--format", "json"}, specs);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    json reported = json::parse(report.out);
    EXPECT_EQ(reported.at("warm_processes"), s.at("warm_processes")) << "report does not give back what tune printed";
    EXPECT_EQ(reported.at("code_identities"), s.at("code_identities"));
}

TEST_F(WarmMeasurement, WhyAProcessRanABuildAsItDidIsKeptWithThatBuildsCode) {
    json s = tune({{"FAKE_WARM_WHY_ON", "-O=3"}});
    ASSERT_EQ(s.at("outcome"), "improved") << result.err;
    std::size_t said = 0;
    for (const auto& c : s.at("code_identities")) {
        if (c.at("route") == "-O=3") {
            EXPECT_EQ(c.at("why"), json::array({"asked to say why by FAKE_WARM_WHY_ON"})) << "each reason once: " << c.dump();
            ++said;
        } else {
            EXPECT_EQ(c.at("why"), json::array()) << c.dump();
        }
    }
    EXPECT_EQ(said, 1u) << s.at("code_identities").dump(2);
    CliResult report = run_cli({"report", ".routetune/fake_timed.sqlite"}, specs);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_NE(report.out.find("1 said why it ran so (-O=3: asked to say why by FAKE_WARM_WHY_ON)"), std::string::npos)
        << report.out;
}

TEST_F(WarmMeasurement, ACandidateThatKillsTheProcessIsRunCrashedAndTheProcessReplaced) {
    json s = tune({{"FAKE_WARM_CRASH_ON", "-funroll-loops=on"}});
    const json* crashed = evaluation(s, "-funroll-loops=on");
    ASSERT_NE(crashed, nullptr);
    EXPECT_EQ(crashed->at("status"), "run_crashed");
    EXPECT_NE(crashed->at("message").get<std::string>().find("killed by signal 11"), std::string::npos) << crashed->dump();
    EXPECT_NE(crashed->at("message").get<std::string>().find("it was replaced"), std::string::npos);
    EXPECT_EQ(pids().size(), 2u) << "a second process served the rest";
    ASSERT_EQ(s.at("warm_processes").size(), 2u);
    EXPECT_NE(s.at("warm_processes")[0].at("ended").get<std::string>().find("died"), std::string::npos);
    EXPECT_TRUE(s.at("warm_processes")[0].at("default_last_s").is_null()) << "a dead process measures nothing last";
    EXPECT_TRUE(s.at("warm_processes")[1].at("default_first_s").is_number()) << "the new process checks the default first";
    EXPECT_EQ(evaluation(s, "-O=3")->at("status"), "ok");
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
}

TEST_F(WarmMeasurement, ACandidateThatCorruptsOrConfusesTheProcessIsRunCrashed) {
    json s = tune({{"FAKE_WARM_CORRUPT_ON", "-funroll-loops=on"}, {"FAKE_WARM_GARBAGE_ON", "-march=native"}});
    const json* corrupted = evaluation(s, "-funroll-loops=on");
    ASSERT_NE(corrupted, nullptr);
    EXPECT_EQ(corrupted->at("status"), "run_crashed");
    EXPECT_NE(corrupted->at("message").get<std::string>().find("unusable: CUDA error"), std::string::npos) << corrupted->dump();
    const json* garbled = evaluation(s, "-march=native");
    ASSERT_NE(garbled, nullptr);
    EXPECT_EQ(garbled->at("status"), "run_crashed");
    EXPECT_NE(garbled->at("message").get<std::string>().find("out of protocol"), std::string::npos) << garbled->dump();
    EXPECT_EQ(pids().size(), 3u) << "each of the two replaced";
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
}

TEST_F(WarmMeasurement, AHungRunTimesOutAndAFailedRunLeavesTheProcessServing) {
    json s = tune({{"FAKE_WARM_HANG_ON", "-march=native"}, {"FAKE_WARM_FAIL_ON", "-funroll-loops=on"}});
    const json* hung = evaluation(s, "-march=native");
    ASSERT_NE(hung, nullptr);
    EXPECT_EQ(hung->at("status"), "run_timeout");
    EXPECT_NE(hung->at("message").get<std::string>().find("killed and replaced"), std::string::npos) << hung->dump();
    const json* failed = evaluation(s, "-funroll-loops=on");
    ASSERT_NE(failed, nullptr);
    EXPECT_EQ(failed->at("status"), "run_failed");
    EXPECT_NE(failed->at("message").get<std::string>().find("injected run failure"), std::string::npos) << failed->dump();
    EXPECT_EQ(pids().size(), 2u) << "only the hang replaced the process";
}

// Every run of a build in a warm process loads it again (Inductor's workload resets its
// compiler per request), which a relative limit made from the default's runs does not foresee:
// each run may take the limit plus the build's own time (here 1 s of limit, from
// relative_timeout's floor, and the 1 s those two builds sleep), so a build that takes 1.5 s to
// load on every run and then runs as fast as the others is measured in all its runs (the search's
// repeats and both confirmation rounds), not failed; a hang still times out.
TEST_F(WarmMeasurement, ABuildThatIsSlowToLoadIsGivenItsBuildTimeOnEveryRun) {
    vary_spec("relative_timeout = 0\n", "relative_timeout = 2\nrelative_timeout_floor_s = 1\n", "warm.toml");
    json s = tune({{"FAKE_WARM_SLOW_LOAD_ON", "-O=3"},
                   {"FAKE_BUILD_HANG_ON", "-O3 -march=native"}, {"FAKE_BUILD_HANG_S", "1"}, {"FAKE_WARM_HANG_ON", "-march=native"}},
                  {"--routes", "-O=[2|3] -march=[x86-64|native]", "--jobs", "3"});
    const json* slow = evaluation(s, "-O=3");
    ASSERT_NE(slow, nullptr);
    EXPECT_EQ(slow->at("status"), "ok") << slow->dump();
    EXPECT_EQ(s.at("winner").value("route", ""), "-O=3") << "its confirmation runs were measured too: " << s.dump();
    const json* hung = evaluation(s, "-march=native");
    ASSERT_NE(hung, nullptr);
    EXPECT_EQ(hung->at("status"), "run_timeout") << hung->dump();
    EXPECT_NE(hung->at("message").get<std::string>().find("timed out after 2"), std::string::npos)
        << "a hang's first run gets the limit plus its build's 1 s, no more: " << hung->dump();
}

// --time-limit covers closing the warm processes too (each measures the default once more and
// quits, one after another): with three lanes there are four processes (one per lane, and the
// unpinned one that measured the default), with one lane one, so the same study keeps about three
// more closings free (3 x (a default run + 1 s)); the rest of the reserve (the confirmation, one
// measurement) does not depend on the lanes. The closing comes after the confirmation, so the
// confirmation must end that much before the limit.
TEST_F(WarmMeasurement, TheTimePlanKeepsTheClosingOfEveryWarmProcessFree) {
    auto reserve = [&](const std::string& lanes) {
        json s = tune({}, {"--time-limit", "10m", "--measure-lanes", lanes, "--jobs", "3", "--cache",
                           (specs / ("lanes" + lanes + ".sqlite")).string()});
        EXPECT_EQ(s.at("outcome"), "improved") << result.err;
        std::size_t processes = lanes == "1" ? 1u : 4u;
        EXPECT_EQ(s.at("warm_processes").size(), processes) << s.dump(2);
        // Each closing: a default run (as the time plan prices it) and 1 s to quit.
        double kept_after = 600 - s.at("time").at("confirmation_deadline_s").get<double>();
        EXPECT_GE(kept_after, processes * 1.0) << s.at("time").dump();
        EXPECT_LT(kept_after, processes * 2.0) << s.at("time").dump();
        return s.at("time").at("confirmation_reserve_s").get<double>();
    };
    double one = reserve("1"), three = reserve("3");
    // 3.01 s here; the rest of the two plans (from measured run times) may differ a little.
    EXPECT_GT(three - one, 2.5) << "one lane kept " << one << " s, three " << three << " s";
    EXPECT_LT(three - one, 4.5) << "one lane kept " << one << " s, three " << three << " s";
}

// A warm process's first request also pays what the process pays once (an Inductor model's trace,
// which later requests reuse): here 3 s. The time plan prices a build's first run from the
// default's first run that was not its process's first request, so the confirmation's reserve
// does not grow with it (it would by 3 s for each of its two routes' first runs, and 3 s more for
// the one measurement kept free). The default's A/A runs its paired self first without warm-up
// rounds, and its own build first with one: both orders.
TEST_F(WarmMeasurement, AProcesssFirstRequestIsNotPricedAsEveryBuildsFirstRun) {
    auto reserve = [&](const std::string& warmup, const std::string& first_s) {
        vary_spec("warmup = 0\n", "warmup = " + warmup + "\n", "first.toml");
        result = run_cli({"tune", "first.toml", "--json", "--time-limit", "10m", "--measure-lanes", "1", "--cache",
                          (specs / ("first" + warmup + first_s + ".sqlite")).string()},
                         specs, {{"FAKE_JITTER", "0"}, {"FAKE_WARM_PROCESS_FIRST_S", first_s}});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        json s = json::parse(result.out.empty() ? "{}" : result.out);
        EXPECT_EQ(s.value("outcome", ""), "improved") << result.err;
        EXPECT_GT(s.value("wall_s", 0.0), first_s == "3" ? 3.0 : 0.0) << "the process's first request did not pay its 3 s";
        return s.at("time").at("confirmation_reserve_s").get<double>();
    };
    for (const std::string warmup : {"0", "1"}) {
        double plain = reserve(warmup, "0"), slow_start = reserve(warmup, "3");
        EXPECT_LT(slow_start - plain, 1.5) << warmup << " warm-up rounds: reserves " << plain << " and " << slow_start << " s";
    }
}

// A route whose every run loads slowly (1.5 s here; a freezing=on BERT build's request took 3.6 s on
// the H100 against the default's 0.55 s) is priced at its own runs: the time the search keeps free
// covers what its confirmation then takes. Priced at the default's runs, it kept 1.1 s for a
// confirmation of 6 s.
TEST_F(WarmMeasurement, TheTimeKeptForTheConfirmationPricesEachRouteAtItsOwnRuns) {
    json s = tune({{"FAKE_WARM_SLOW_LOAD_ON", "-O=3"}}, {"--time-limit", "10m", "--measure-lanes", "1"});
    ASSERT_EQ(s.at("winner").value("route", ""), "-O=3") << result.err;
    double kept = s.at("time").at("confirmation_reserve_s").get<double>();
    double took = s.at("time").at("confirmation_s").get<double>();
    EXPECT_GT(took, 2 * 1.5) << "two passes over the slow build";
    EXPECT_GE(kept, took) << result.err;
}

// A build whose first run in a process loads for 1.5 s and whose later runs reuse what it loaded
// (an Inductor compile the process keeps: BERT's frozen build 3.5-4.8 s the first time, 0.34 s after,
// on the H100) says so ("setup_s"), and its later runs are priced without it. One measured run per
// case, so the later runs' price comes from that run alone: taken whole, it would price the
// confirmation's second pass 1.5 s higher.
TEST_F(WarmMeasurement, ALoadTheProcessKeepsIsPricedForTheBuildsFirstRunOnly) {
    vary_spec("repeats = 3\n", "repeats = 1\n", "once.toml");
    json s;
    auto reserve = [&](const std::string& kept_load_on) {
        result = run_cli({"tune", "once.toml", "--json", "--time-limit", "10m", "--measure-lanes", "1", "--cache",
                          (specs / ("once" + std::to_string(kept_load_on.size()) + ".sqlite")).string()},
                         specs, {{"FAKE_JITTER", "0"}, {"FAKE_WARM_KEPT_LOAD_ON", kept_load_on}});
        EXPECT_EQ(result.exit_code, 0) << result.err;
        s = json::parse(result.out.empty() ? "{}" : result.out);
        EXPECT_EQ(s.value("winner", json::object()).value("route", ""), "-O=3") << result.err;
        return s.at("time").at("confirmation_reserve_s").get<double>();
    };
    double plain = reserve(""), kept = reserve("-O=3");
    ASSERT_EQ(s.at("warm_processes").size(), 1u);
    EXPECT_GE(s.at("warm_processes")[0].at("request_max_s").get<double>(), 1.5) << "the load, once";
    EXPECT_LT(s.at("warm_processes")[0].at("request_median_s").get<double>(), 1.0) << "the load, in every run";
    EXPECT_GT(kept - plain, 1.0) << "the build's first run is priced with its load: " << plain << " and " << kept << " s";
    EXPECT_LT(kept - plain, 2.25) << "its later run is priced with it too: " << plain << " and " << kept << " s";
}

TEST_F(WarmMeasurement, ABuildWhoseRunsReportOtherCodeFails) {
    json s = tune({{"FAKE_WARM_WRONG_CODE_ON", "-O=3"}});
    const json* wrong = evaluation(s, "-O=3");
    ASSERT_NE(wrong, nullptr);
    EXPECT_EQ(wrong->at("status"), "run_failed");
    EXPECT_NE(wrong->at("message").get<std::string>().find("did not run this build's own code"), std::string::npos)
        << wrong->dump();
    EXPECT_NE(s.at("winner").at("route"), "-O=3");
}

TEST_F(WarmMeasurement, AProcessWhoseDefaultDriftsIsWarnedAbout) {
    json s = tune({{"FAKE_WARM_DRIFT", "0.02"}});
    ASSERT_EQ(s.at("warm_processes").size(), 1u);
    double first = s.at("warm_processes")[0].at("default_first_s").get<double>();
    double last = s.at("warm_processes")[0].at("default_last_s").get<double>();
    EXPECT_GT(last, first * 1.02);
    EXPECT_NE(result.err.find("apart first and last, more than min_gain"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("or builds ran beside its runs on the same device"), std::string::npos)
        << "a warm process's runs overlap builds, so the warning names them as a cause: " << result.err;
}

TEST_F(WarmMeasurement, TheProcessWritesUnderTheRunsFileSizeLimit) {
    vary_spec("timeout_s = 5\n", "timeout_s = 5\nmax_output_mb = 1\n", "warm.toml");
    json s = tune({{"FAKE_WARM_FLOOD_ON", "-funroll-loops=on"}});
    const json* flooded = evaluation(s, "-funroll-loops=on");
    ASSERT_NE(flooded, nullptr);
    EXPECT_EQ(flooded->at("status"), "run_failed");
    // RLIMIT_FSIZE stops the write at 1 MiB (Python ignores SIGXFSZ, so it sees EFBIG), rather
    // than the output growing to 3 MiB and being refused only after the run.
    EXPECT_NE(flooded->at("message").get<std::string>().find("File too large"), std::string::npos) << flooded->dump();
    EXPECT_EQ(s.at("winner").at("route"), "-O=3");
}

TEST_F(WarmMeasurement, AServerThatCannotStartFailsTheDefaultWithItsReason) {
    CliResult r = run_cli({"tune", "warm.toml"}, specs, {{"FAKE_WARM_SETUP_FAIL", "1"}});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("the warm measurement process did not start"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("injected setup failure"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace routetune::e2e
