// End-to-end scale-out against a real PostgreSQL server: a coordinator and three workers on
// a 16-candidate study of one-second fake builds, two workers SIGKILLed mid-evaluation (every
// route recorded once, the same result as the SQLite store, each worker's candidates paired
// with the default it built itself); a SIGSTOPped worker whose late
// write is refused; a worker that cuts a hung build at [build] relative_timeout of the
// coordinator's default build; a worker building its paired default while the coordinator's
// default still builds; a SIGKILLed coordinator resumed with --continue while workers wait; an
// unreachable database; a worker with another spec.
#include <gtest/gtest.h>

#include <fstream>
#include <future>
#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "e2e/hung_build_checks.hpp"
#include "hostile/process_census.hpp"
#include "pg/pg_test_database.hpp"
#include "store/postgres/pg_connection.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

const char* kExpression = "-O=[2|3] -funroll-loops=[on|off] -march=[x86-64|native] -ffast-math=[on|off]";
const std::map<std::string, std::string> kSlowBuilds{{"FAKE_BUILD_SLEEP_S", "1"}, {"FAKE_JITTER", "0"}};

std::int64_t scalar(const std::string& url, const std::string& sql) {
    return PgConnection(url).exec(sql).integer(0, 0);
}

bool wait_for(const std::function<bool()>& condition, std::chrono::seconds limit = 60s) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) return true;
        std::this_thread::sleep_for(50ms);
    }
    return false;
}

// scalar(), or 0 while the schema does not exist yet.
std::int64_t scalar_or_zero(const std::string& url, const std::string& sql) {
    try {
        return scalar(url, sql);
    } catch (const std::exception&) {
        return 0;
    }
}

bool holds_claim(const std::string& url, const std::string& worker) {
    return scalar_or_zero(url, "SELECT count(*) FROM candidate WHERE state = 'running' AND worker = '" + worker + "'") > 0;
}

std::string text_of(const fs::path& file) {
    std::ifstream in(file);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// route -> (status, time) of a summary; fails on a route listed twice.
std::map<std::string, std::pair<std::string, double>> outcomes(const json& s) {
    std::map<std::string, std::pair<std::string, double>> by_route;
    for (const auto& e : s.at("evaluations")) {
        std::string route = e.at("route");
        EXPECT_EQ(by_route.count(route), 0u) << "recorded twice: " << route;
        bool ok = e.at("status") == "ok";
        by_route[route] = {e.at("status"), ok ? e.at("time").get<double>() : -1.0};
    }
    return by_route;
}

// One process's folder (its background.log) beside the specs.
fs::path own_folder(const fs::path& specs, const std::string& name) {
    fs::path folder = specs / name;
    fs::create_directories(folder);
    return folder;
}

std::vector<std::string> worker_args(const fs::path& specs, const std::string& url, const std::string& id,
                                     const std::string& lease) {
    return {"worker", (specs / "fake_timed.toml").string(), "--store", url, "--worker-id", id, "--lease", lease};
}

std::vector<std::string> tune_args(const fs::path& specs, const std::string& url, const std::string& expression,
                                   const std::string& lease = "2s") {
    return {"tune", (specs / "fake_timed.toml").string(), "--store", url, "--search", "full", "--routes", expression,
            "--lease", lease, "--json"};
}

TEST(ScaleOutCli, ThreeWorkersTwoKilledEveryRouteOnceSameResultAsSqlite) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path reference = scratch_specs();
    CliResult sqlite = run_cli({"tune", "fake_timed.toml", "--search", "full", "--routes", kExpression, "--json"},
                               reference, {{"FAKE_JITTER", "0"}});
    ASSERT_EQ(sqlite.exit_code, 0) << sqlite.err;
    json expected = json::parse(sqlite.out);

    fs::path specs = scratch_specs();
    std::vector<std::unique_ptr<BackgroundCli>> workers;
    // The two to be killed hold 2 s leases (their reclaim comes quickly); the survivors hold
    // 20 s ones, so a loaded machine's slow heartbeat never costs them a lease.
    for (const char* id : {"w1", "w2", "w3"}) {
        std::string lease = id == std::string("w3") ? "20s" : "2s";
        workers.push_back(std::make_unique<BackgroundCli>(worker_args(specs, url, id, lease), own_folder(specs, id), kSlowBuilds));
    }
    auto coordinator = std::async(std::launch::async, [&] {
        return run_cli(tune_args(specs, url, kExpression, "20s"), own_folder(specs, "coordinator"), kSlowBuilds, 120);
    });
    for (std::size_t i = 0; i < 2; ++i) {
        std::string id = "w" + std::to_string(i + 1);
        ASSERT_TRUE(wait_for([&] { return holds_claim(url, id); })) << id << " never claimed";
        std::this_thread::sleep_for(300ms);  // inside its one-second build
        workers[i]->signal(SIGKILL);
        workers[i]->wait();
    }
    CliResult tuned = coordinator.get();
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    json s = json::parse(tuned.out);
    EXPECT_EQ(s.at("counts").at("total"), 17);
    EXPECT_EQ(outcomes(s), outcomes(expected));
    EXPECT_EQ(s.at("winner").at("route"), expected.at("winner").at("route"));
    EXPECT_EQ(s.at("winner").at("route"), "-O=3 -ffast-math=off -funroll-loops=on -march=native");
    EXPECT_EQ(scalar(url, "SELECT count(DISTINCT route_hash) FROM evaluation"), 17);
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM evaluation"), 17);
    EXPECT_GE(scalar(url, "SELECT count(*) FROM lease_event WHERE kind = 'reclaimed'"), 2);
    EXPECT_GE(scalar(url, "SELECT count(*) FROM evaluation WHERE worker = 'w3'"), 1);
    // Paired timing: every candidate a worker measured holds its rounds paired with the default
    // that worker built itself.
    EXPECT_GE(scalar(url, "SELECT count(*) FROM evaluation WHERE worker <> '' AND status = 'ok'"), 1);
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM evaluation WHERE worker <> '' AND status = 'ok' AND "
                          "(paired_default_samples = '' OR paired_samples = '')"),
              0);
    EXPECT_EQ(workers[2]->wait(), 0);  // the queue closed: the surviving worker exits
    EXPECT_NE(text_of(specs / "w3" / "background.log").find("built the default route here"), std::string::npos);
}

TEST(ScaleOutCli, AWorkerStoppedPastItsLeaseHasItsLateWriteRefused) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    BackgroundCli stopped(worker_args(specs, url, "sleepy", "1s"), own_folder(specs, "sleepy"), kSlowBuilds);
    std::vector<std::string> args = tune_args(specs, url, "-O=[1|3]");
    args.insert(args.end(), {"--jobs", "0"});
    auto coordinator = std::async(std::launch::async, [&] {
        return run_cli(args, own_folder(specs, "coordinator"), kSlowBuilds, 120);
    });
    ASSERT_TRUE(wait_for([&] { return holds_claim(url, "sleepy"); }));
    stopped.signal(SIGSTOP);
    BackgroundCli helper(worker_args(specs, url, "helper", "5s"), own_folder(specs, "helper"), kSlowBuilds);
    CliResult tuned = coordinator.get();
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    stopped.signal(SIGCONT);
    EXPECT_EQ(stopped.wait(), 0);
    std::string log = text_of(specs / "sleepy" / "background.log");
    EXPECT_NE(log.find("refused (lease lost)"), std::string::npos) << log;
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM lease_event WHERE kind = 'refused_write' AND worker = 'sleepy'"), 1);
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM evaluation WHERE worker = 'sleepy'"), 0);
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM evaluation"), 3);  // the default and two routes, once each
}

TEST(ScaleOutCli, AWorkerCutsABuildAtTheRelativeTimeoutOfTheDefaultsBuild) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    std::string file = hung_build_spec(specs, "slow_builds.toml").string();
    BackgroundCli worker({"worker", file, "--store", url, "--worker-id", "w1", "--lease", "20s"}, own_folder(specs, "w1"));
    auto started = std::chrono::steady_clock::now();
    CliResult tuned = run_cli({"tune", file, "--store", url, "--search", "full", "--routes", "-funroll-loops=[on|off]", "--lease",
                               "20s", "--json", "--jobs", "0"},
                              own_folder(specs, "coordinator"), {}, 120);
    double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    expect_hung_build_cut_at_relative_limit(json::parse(tuned.out));
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM evaluation WHERE worker = 'w1' AND status = 'build_timeout'"), 1);
    EXPECT_LT(took, 60) << "the worker's hung build held the study past its relative limit";
    EXPECT_EQ(worker.wait(), 0);
}

// Issue 25: a worker killed with SIGKILL in the middle of a hung build leaves no process of it
// behind (its guardian ends them); before, the build outlived the worker until its timeout.
TEST(ScaleOutCli, AKilledWorkerLeavesNoBuildBehind) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    BackgroundCli coordinator({"tune", (specs / "fake_timed.toml").string(), "--store", url, "--search", "full",
                               "--routes", "-funroll-loops=[on|off]", "--lease", "20s", "--jobs", "0"},
                              own_folder(specs, "coordinator"));
    BackgroundCli worker(worker_args(specs, url, "w1", "20s"), own_folder(specs, "w1"),
                         {{"FAKE_BUILD_HANG_ON", "-funroll-loops"}, {"FAKE_BUILD_HANG_S", "3333.625"}});
    ASSERT_TRUE(appears("sleep 3333.625", "cmdline", 120)) << "the hung build never started";
    worker.signal(SIGKILL);
    worker.wait();
    std::size_t left = survivors("sleep 3333.625");
    kill_all_with("sleep 3333.625");
    coordinator.signal(SIGKILL);
    EXPECT_EQ(left, 0u) << "the killed worker's hung build outlived it";
}

// Issue 27: a worker builds the default it pairs candidates with while the coordinator still
// evaluates its own (the build needs no baseline); before, it waited for the baseline first,
// so every worker's first candidate started one build later. Here the coordinator's default
// build hangs (no baseline ever comes) and the worker's default build still runs.
TEST(ScaleOutCli, AWorkerBuildsItsPairedDefaultWhileTheCoordinatorsDefaultIsStillBuilding) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    BackgroundCli coordinator({"tune", (specs / "fake_timed.toml").string(), "--store", url, "--search", "full",
                               "--routes", "-funroll-loops=[on|off]", "--lease", "20s", "--jobs", "0"},
                              own_folder(specs, "coordinator"),
                              {{"FAKE_BUILD_HANG_ON", "-O2"}, {"FAKE_BUILD_HANG_S", "3331.375"}});
    ASSERT_TRUE(appears("sleep 3331.375", "cmdline", 120)) << "the coordinator's default build never started";
    fs::path calls = specs / "w1_cc.log";
    BackgroundCli worker(worker_args(specs, url, "w1", "20s"), own_folder(specs, "w1"), {{"FAKE_CC_LOG", calls.string()}});
    bool built = wait_for([&] { return text_of(calls).find("fake_timed.worker-w1.d/work/") != std::string::npos; });
    bool coordinator_still_building = !processes_with("sleep 3331.375", "cmdline").empty();
    worker.signal(SIGKILL);
    worker.wait();
    coordinator.signal(SIGKILL);
    coordinator.wait();
    kill_all_with("sleep 3331.375");
    EXPECT_TRUE(built) << "the worker did not build its default before the coordinator's baseline";
    EXPECT_TRUE(coordinator_still_building);
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM baseline"), 0);
}

TEST(ScaleOutCli, AKilledCoordinatorResumesWhileWorkersKeepDraining) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    std::map<std::string, std::string> env{{"FAKE_BUILD_SLEEP_S", "0.3"}, {"FAKE_JITTER", "0"}};
    BackgroundCli w1(worker_args(specs, url, "w1", "2s"), own_folder(specs, "w1"), env);
    BackgroundCli w2(worker_args(specs, url, "w2", "2s"), own_folder(specs, "w2"), env);
    {
        BackgroundCli coordinator(tune_args(specs, url, kExpression), own_folder(specs, "first"), env);
        ASSERT_TRUE(wait_for([&] { return scalar_or_zero(url, "SELECT count(*) FROM evaluation WHERE status <> 'pending'") >= 5; }));
        coordinator.signal(SIGKILL);
        coordinator.wait();
    }
    ASSERT_TRUE(wait_for([&] {
        return text_of(specs / "w1" / "background.log").find("nothing queued; waiting") != std::string::npos;
    })) << text_of(specs / "w1" / "background.log");
    CliResult resumed = run_cli([&] {
        std::vector<std::string> args = tune_args(specs, url, kExpression);
        args.push_back("--continue");
        return args;
    }(), own_folder(specs, "second"), env, 120);
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    json s = json::parse(resumed.out);
    EXPECT_EQ(s.at("counts").at("total"), 17);
    outcomes(s);
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM evaluation"), 17);
    EXPECT_EQ(s.at("winner").at("route"), "-O=3 -ffast-math=off -funroll-loops=on -march=native");
    EXPECT_EQ(w1.wait(), 0);
    EXPECT_EQ(w2.wait(), 0);
}

TEST(ScaleOutCli, ACoordinatorWaitingForWorkersStopsOnSigterm) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    std::vector<std::string> args = tune_args(specs, url, "-O=[1|3]");
    args.insert(args.end(), {"--jobs", "0"});
    BackgroundCli coordinator(args, own_folder(specs, "coordinator"));
    ASSERT_TRUE(wait_for([&] { return scalar_or_zero(url, "SELECT count(*) FROM candidate") == 2; }));
    coordinator.signal(SIGTERM);
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (coordinator.running() && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(50ms);
    ASSERT_FALSE(coordinator.running()) << "still waiting for the queue 10 s after SIGTERM";
    EXPECT_EQ(scalar(url, "SELECT count(*) FROM candidate WHERE state = 'queued'"), 2);  // left for workers
}

TEST(ScaleOutCli, AnUnreachableDatabaseExits1NamingTheRedactedUrlAndTheServerMessage) {
    fs::path specs = scratch_specs();
    std::string url = "postgresql://ann:s3cret@127.0.0.1:1/db";
    for (const auto& args : {std::vector<std::string>{"tune", "fake_timed.toml", "--store", url},
                             std::vector<std::string>{"worker", "fake_timed.toml", "--store", url},
                             std::vector<std::string>{"report", "--store", url}}) {
        CliResult r = run_cli(args, specs);
        EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
        EXPECT_NE(r.err.find("postgresql://ann:***@127.0.0.1:1/db"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("Connection refused"), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("s3cret"), std::string::npos) << r.err;
    }
}

TEST(ScaleOutCli, AWorkerWithAnotherSpecIsRefusedNamingTheSpecHash) {
    ROUTETUNE_FRESH_PG_DATABASE(url);
    fs::path specs = scratch_specs();
    CliResult tuned = run_cli({"tune", "fake_timed.toml", "--store", url, "--routes", "-O=[1|3]"}, specs);
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    std::ofstream(specs / "fake_timed.toml", std::ios::app) << "\n# another spec\n";
    CliResult worker = run_cli({"worker", "fake_timed.toml", "--store", url}, specs, {}, 60);
    EXPECT_EQ(worker.exit_code, 3) << worker.err;
    EXPECT_NE(worker.err.find("spec.sha256"), std::string::npos) << worker.err;
    std::string recorded = PgConnection(url).exec("SELECT spec_sha256 FROM study").text(0, 0);
    EXPECT_NE(worker.err.find(recorded), std::string::npos) << worker.err;
    CliResult report = run_cli({"report", "--store", url, "--format", "json"}, specs);
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_EQ(json::parse(report.out).at("counts").at("total"), 3);
}

}  // namespace
}  // namespace routetune::e2e
