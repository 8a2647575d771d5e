// GPT tuning caches: parsing the fixture, mapping iterations to Evaluations, and the round
// trip Evaluations → cache text → Evaluations.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "routetune/error.hpp"
#include "gpt/trtexec_cache.hpp"

namespace routetune {
namespace {

std::string fixture_text() {
    std::ifstream in(std::string(ROUTETUNE_FIXTURES) + "/trtexec/tuning_cache.jsonl");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(TrtexecCache, ParsesHeaderAndIterations) {
    TrtexecCache cache = parse_trtexec_cache(fixture_text());
    EXPECT_EQ(cache.header.tuner_version, "2.19.45");
    EXPECT_EQ(cache.header.accuracy_algorithm, "l0");
    EXPECT_DOUBLE_EQ(cache.header.accuracy_parameter.epsilon, 0.01);
    EXPECT_DOUBLE_EQ(cache.header.accuracy_parameter.atol, 1e-5);
    EXPECT_EQ(cache.header.searching_algorithm, "fast");
    EXPECT_EQ(cache.header.tuning_expr,
              "-conv_lowering=[on|off] -copy_ppg=[on|off] -kgen:tiling=[0|1|2] -match_ragged_mha=[on|off]");
    EXPECT_EQ(cache.header.argv.size(), 8u);
    EXPECT_EQ(cache.header.argv[0], "trtexec");
    ASSERT_EQ(cache.iterations.size(), 6u);
    EXPECT_EQ(cache.iterations[2].error_message,
              "Error Code 10: Internal Error (Could not find any implementation for node /conv1/Conv.)");
    EXPECT_FALSE(cache.iterations[2].gpu_time_ms.has_value());
    EXPECT_TRUE(cache.iterations[4].crash);
    EXPECT_DOUBLE_EQ(cache.iterations[5].gpu_time_ms.value(), 0.88);
    EXPECT_DOUBLE_EQ(cache.iterations[1].accuracy_loss->at("output"), 0.125);
}

TEST(TrtexecCache, MapsIterationsToEvaluations) {
    auto evaluations = trtexec_cache_to_evaluations(parse_trtexec_cache(fixture_text()));
    ASSERT_EQ(evaluations.size(), 6u);
    std::vector<Status> statuses;
    for (const auto& e : evaluations) statuses.push_back(e.status);
    EXPECT_EQ(statuses, (std::vector<Status>{Status::Ok, Status::Inaccurate, Status::BuildFailed, Status::Ok,
                                             Status::BuildCrashed, Status::Ok}));
    EXPECT_EQ(evaluations[0].phase, "default");
    EXPECT_EQ(evaluations[3].phase, "fast");
    EXPECT_EQ(evaluations[5].route.get("-match_ragged_mha").value(), "off");
    EXPECT_DOUBLE_EQ(evaluations[5].timing.median_s, 0.00088);
    EXPECT_EQ(evaluations[5].timing.samples_s.size(), 1u);
    ASSERT_EQ(evaluations[1].cases.size(), 1u);
    EXPECT_EQ(evaluations[1].cases[0].name, "output");
    EXPECT_DOUBLE_EQ(evaluations[1].cases[0].loss, 0.125);
    EXPECT_EQ(evaluations[1].cases[0].status, Status::Inaccurate);
    EXPECT_EQ(evaluations[2].message,
              "Error Code 10: Internal Error (Could not find any implementation for node /conv1/Conv.)");
    EXPECT_EQ(evaluations[4].message, "crashed");
    EXPECT_TRUE(evaluations[4].timing.samples_s.empty());
}

TEST(TrtexecCache, RoundTripsTheFixtureByteForByte) {
    std::string text = fixture_text();
    TrtexecCache cache = parse_trtexec_cache(text);
    EXPECT_EQ(write_trtexec_cache(cache), text);
    auto evaluations = trtexec_cache_to_evaluations(cache);
    TrtexecCache exported = evaluations_to_trtexec_cache(evaluations, cache.header);
    EXPECT_EQ(write_trtexec_cache(exported), text);
}

TEST(TrtexecCache, ExportsRoutetuneStatuses) {
    std::vector<Evaluation> evaluations(4);
    evaluations[0].status = Status::Ok;
    evaluations[0].timing.median_s = 0.0125;
    evaluations[0].cases.push_back({"typical", Status::Ok, 0, 0, 1e-7, "", {}});
    evaluations[1].route.set("-O", "3");
    evaluations[1].status = Status::RunTimeout;
    evaluations[1].message = "run timed out after 60 s";
    evaluations[2].route.set("-O", "1");
    evaluations[2].status = Status::RunFailed;
    evaluations[3].route.set("-O", "0");
    evaluations[3].status = Status::Inaccurate;
    evaluations[3].timing.median_s = 0.02;
    evaluations[3].cases.push_back({"typical", Status::Inaccurate, 0, 0, 0.5, "", {}});
    TrtexecCacheHeader header;
    header.tuner_version = "routetune";
    TrtexecCache cache = evaluations_to_trtexec_cache(evaluations, header);
    std::string text = write_trtexec_cache(cache);
    std::string expected_iterations =
        "{\"iter\":0,\"build_route\":\"\",\"crash\":false,\"error_message\":\"\",\"accuracy_loss\":{\"typical\":1e-07},"
        "\"gpu_time\":12.5}\n"
        "{\"iter\":1,\"build_route\":\"-O=3\",\"crash\":true,\"error_message\":\"run timed out after 60 s\","
        "\"accuracy_loss\":null,\"gpu_time\":null}\n"
        "{\"iter\":2,\"build_route\":\"-O=1\",\"crash\":false,\"error_message\":\"run failed\",\"accuracy_loss\":null,"
        "\"gpu_time\":null}\n"
        "{\"iter\":3,\"build_route\":\"-O=0\",\"crash\":false,\"error_message\":\"\",\"accuracy_loss\":{\"typical\":0.5},"
        "\"gpu_time\":20.0}\n";
    ASSERT_GT(text.size(), expected_iterations.size());
    EXPECT_EQ(text.substr(text.find('\n') + 1), expected_iterations);
    EXPECT_EQ(parse_trtexec_cache(text).iterations.size(), 4u);
}

TEST(TrtexecCache, ErrorsNameTheLine) {
    try {
        parse_trtexec_cache("{\"tuner_version\":\"1\"}\n\n{\"iter\":0}\n", "tune.jsonl");
        FAIL() << "expected UsageError";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("tune.jsonl:3:"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_trtexec_cache("", "x"), UsageError);
    EXPECT_THROW(parse_trtexec_cache("[1,2]\n", "x"), UsageError);
}

TEST(TrtexecCache, MapsMetricNames) {
    EXPECT_EQ(trtexec_accuracy_algorithm("linf").value(), "lInf");
    EXPECT_EQ(trtexec_accuracy_algorithm("cos").value(), "cos");
    EXPECT_FALSE(trtexec_accuracy_algorithm("rel_l2").has_value());
}

}  // namespace
}  // namespace routetune
