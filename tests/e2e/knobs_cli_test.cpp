// `routetune knobs` end to end: the built executable against the real gcc, with a private
// catalog cache folder.
#include <gtest/gtest.h>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "util/files.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

class KnobsCliTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        home_ = fs::temp_directory_path() / ("routetune-knobs-cli-" + std::to_string(::getpid()));
        fs::remove_all(home_);
        fs::create_directories(home_);
    }
    static void TearDownTestSuite() { fs::remove_all(home_); }

    static ProcessResult knobs(std::vector<std::string> args) {
        ProcessSpec spec;
        spec.argv = {ROUTETUNE_BINARY, "knobs"};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.env["XDG_CACHE_HOME"] = (home_ / "cache").string();
        spec.timeout_s = 240;
        spec.output_cap = 16 << 20;
        return run_process(spec);
    }

    static inline fs::path home_;
};

TEST_F(KnobsCliTest, JsonOfOneKnob) {
    auto result = knobs({"--base=-O2", "--filter", "-funroll-loops", "--json"});
    ASSERT_TRUE(result.succeeded()) << result.err;
    auto doc = nlohmann::json::parse(result.out);
    EXPECT_EQ(doc["compiler"]["adapter"], "gcc");
    ASSERT_EQ(doc["knobs"].size(), 1u);
    const auto& knob = doc["knobs"][0];
    EXPECT_EQ(knob["name"], "-funroll-loops");
    EXPECT_EQ(knob["type"], "bool");
    EXPECT_EQ(knob["values"], nlohmann::json::array({"on", "off"}));
    EXPECT_EQ(knob["tags"], nlohmann::json::array({"optimizer"}));
    EXPECT_TRUE(fs::exists(home_ / "cache" / "routetune" / "catalogs"));
}

TEST_F(KnobsCliTest, TableWithGlob) {
    auto result = knobs({"--base=-O2", "--filter", "-param:avg-loop-n*"});
    ASSERT_TRUE(result.succeeded()) << result.err;
    EXPECT_NE(result.out.find("NAME"), std::string::npos);
    EXPECT_NE(result.out.find("-param:avg-loop-niter"), std::string::npos);
    EXPECT_NE(result.out.find("1..65536"), std::string::npos);
    EXPECT_NE(result.out.find(" 10 "), std::string::npos);
    EXPECT_NE(result.out.find("\n1 knobs\n"), std::string::npos);
}

TEST_F(KnobsCliTest, WholeCatalogHasTwoHundredKnobs) {
    auto result = knobs({"--base=-O2", "--json", "--no-cache"});
    ASSERT_TRUE(result.succeeded()) << result.err;
    auto doc = nlohmann::json::parse(result.out);
    EXPECT_GE(doc["knobs"].size(), 200u);
}

TEST_F(KnobsCliTest, SpecGivesCompilerAndBase) {
    fs::path spec = home_ / "spec.toml";
    ASSERT_TRUE(write_file(spec, "name = \"t\"\n[compiler]\nadapter = \"gcc\"\npath = \"gcc\"\nbase = [\"-O3\"]\n"
                                 "[build]\ncommand = [\"{compiler}\", \"{flags}\", \"t.c\", \"-o\", \"{artifact}\"]\n"
                                 "[run]\ncommand = [\"{artifact}\"]\n"));
    auto result = knobs({spec.string(), "--filter", "-O", "--json"});
    ASSERT_TRUE(result.succeeded()) << result.err;
    auto doc = nlohmann::json::parse(result.out);
    ASSERT_EQ(doc["knobs"].size(), 1u);
    EXPECT_EQ(doc["knobs"][0]["default"], "3");
}

TEST_F(KnobsCliTest, MissingCompilerExitsTwo) {
    auto result = knobs({"--compiler", "routetune-no-such-gcc"});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("compiler 'routetune-no-such-gcc' not found on PATH (set [compiler] path or --compiler)"),
              std::string::npos);
    auto unknown = knobs({"--adapter", "icc"});
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("unknown adapter 'icc'"), std::string::npos);
}

}  // namespace
}  // namespace routetune
