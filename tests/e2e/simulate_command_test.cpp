#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "search/search_space.hpp"
#include "search/sim/synthetic_landscape.hpp"
#include "store/study_store.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

// Records a full study of a small synthetic landscape (every point of its space) in a
// store, then replays strategies against it with the routetune executable.
class SimulateCommand : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("routetune_simulate_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        LandscapeOptions options;
        options.knobs = 8;
        options.seed = 5;
        options.strong = 3;
        options.harmful = 2;
        options.inaccurate = 1;
        options.pairs = 2;
        options.failing_pairs = 1;
        options.failing_rate = 0.1;
        SyntheticLandscape landscape(options);
        SearchSpace space(landscape.expression());
        std::vector<Evaluation> evaluations;
        std::uint64_t size = space.size().to_u64();
        for (std::uint64_t index = 0; index < size; ++index) {
            Point point(space.dimensions());
            std::uint64_t rest = index;
            for (std::size_t d = point.size(); d-- > 0;) {
                point[d] = static_cast<std::uint32_t>(rest % space.choices(d));
                rest /= space.choices(d);
            }
            Observation obs = landscape.evaluate(space.route(point));
            Evaluation evaluation;
            evaluation.route = obs.route;
            evaluation.phase = "full";
            evaluation.status = obs.status;
            evaluation.timing.median_s = obs.median_s;
            evaluation.timing.ci_low_s = obs.ci_low_s;
            evaluation.timing.ci_high_s = obs.ci_high_s;
            if (obs.status == Status::Ok) evaluation.timing.samples_s = {obs.median_s};
            evaluations.push_back(evaluation);
        }
        cache_ = dir_ / "study.sqlite";
        std::unique_ptr<StudyStore> store = StudyStore::open(cache_);
        StudyHeader header;
        header.name = "synthetic";
        header.mode = "full";
        header.expression = landscape.expression().text;
        store->write_header(header);
        store->record_many(evaluations);
        points_ = size;
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    ProcessResult simulate(std::vector<std::string> args) {
        ProcessSpec spec;
        spec.argv = {ROUTETUNE_BINARY, "simulate", cache_.string()};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.timeout_s = 120;
        return run_process(spec);
    }

    std::filesystem::path dir_, cache_;
    std::uint64_t points_ = 0;
};

TEST_F(SimulateCommand, ReportsBuildsToTargetPerStrategyAsJson) {
    ProcessResult result = simulate({"--search", "full,fast,auto", "--budget", "400", "--seeds", "2", "--json"});
    ASSERT_TRUE(result.succeeded()) << result.err;
    auto json = nlohmann::json::parse(result.out);
    EXPECT_EQ(json["evaluations"].get<std::uint64_t>(), points_);
    ASSERT_EQ(json["strategies"].size(), 3u);
    for (const auto& entry : json["strategies"]) {
        EXPECT_EQ(entry["runs"].get<int>(), 2);
        EXPECT_EQ(entry["curve"].size(), 400u);
        EXPECT_GT(entry["best_known_speedup"].get<double>(), 1.1);
        EXPECT_DOUBLE_EQ(entry["curve"][0].get<double>(), 1.0 / entry["best_known_speedup"].get<double>());
    }
    // full walks the whole recorded space (the baseline, then 383 more points), so both runs
    // reach the best, and its curve ends at 1; fast never combines knobs.
    const auto& full = json["strategies"][0];
    EXPECT_EQ(full["strategy"], "full");
    EXPECT_EQ(full["reached"].get<int>(), 2);
    EXPECT_LE(full["median_builds_to_target"].get<double>(), 384.0);
    EXPECT_DOUBLE_EQ(full["curve"][399].get<double>(), 1.0);
    EXPECT_EQ(points_, 384u);
    const auto& fast = json["strategies"][1];
    EXPECT_LT(fast["curve"][399].get<double>(), full["curve"][399].get<double>());
}

TEST_F(SimulateCommand, UnknownStrategyIsAUsageError) {
    ProcessResult result = simulate({"--search", "annealing"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("valid: auto"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace routetune
