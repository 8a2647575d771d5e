// A study whose one build hangs: fake_timed.toml with every build taking 0.5 s and
// -funroll-loops=on's 100 s more, cut by [build] relative_timeout = 4 (timeout_s is 30), and
// the checks that the hung build was cut at the relative limit. Shared by the local study's
// test (study_feedback_test) and the worker's (pg/scale_out_cli_test).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {

/// Writes specs/name: specs/fake_timed.toml with the hung build and the relative limit.
inline fs::path hung_build_spec(const fs::path& specs, const std::string& name) {
    std::string spec = read_file(specs / "fake_timed.toml").value_or("");
    const std::string after = "timeout_s = 30\n";
    auto at = spec.find(after);
    EXPECT_NE(at, std::string::npos) << "fake_timed.toml has no [build] timeout_s = 30";
    if (at != std::string::npos)
        spec.insert(at + after.size(),
                    "relative_timeout = 4\nrelative_timeout_floor_s = 0.5\n"
                    "env = { FAKE_BUILD_SLEEP_S = \"0.5\", FAKE_BUILD_HANG_ON = \"-funroll-loops\", FAKE_BUILD_HANG_S = \"100\" }\n");
    write_file(specs / name, spec);
    return specs / name;
}

/// Checks summary (tune --json of that spec): -funroll-loops=on ended build_timeout at about
/// 4 x the default's build time, naming the relative limit; no other route timed out.
inline void expect_hung_build_cut_at_relative_limit(const nlohmann::json& summary) {
    double default_build = summary.at("evaluations").at(0).at("build_s").get<double>();
    bool cut = false;
    for (const auto& e : summary.at("evaluations")) {
        if (e.at("route") != "-funroll-loops=on") {
            EXPECT_NE(e.at("status"), "build_timeout") << e.dump();
            continue;
        }
        cut = true;
        EXPECT_EQ(e.at("status"), "build_timeout") << e.dump();
        double limit = 4 * default_build;
        EXPECT_GE(e.at("build_s").get<double>(), limit * 0.9) << e.dump();
        EXPECT_LT(e.at("build_s").get<double>(), limit + 5) << e.dump();
        EXPECT_NE(e.at("message").get<std::string>().find("[build] relative_timeout 4 x the default's"), std::string::npos)
            << e.dump();
    }
    EXPECT_TRUE(cut) << "-funroll-loops=on was not evaluated";
}

}  // namespace routetune::e2e
