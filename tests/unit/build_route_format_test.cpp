// `routetune flags --format`: every format carries the flags and the environment, quoted so
// that the consumer (sh, make, cmake, an environment file, a JSON reader) reads back exactly
// the items; what a format cannot hold is refused, never mangled.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "govern/build_route_format.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/process.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

BuildRoute tile_route() {
    return BuildRoute{"-O=3 -tile=16", {"-O3", "-DNAME=a b", "-DCOST=$5#x"}, {{"TILE", "16"}, {"NOTE", "it's $HOME"}},
                      "lock", "routetune.lock.json", "/p/spec.toml", ""};
}

std::string run(const std::vector<std::string>& argv, const fs::path& cwd) {
    ProcessSpec spec;
    spec.argv = argv;
    spec.cwd = cwd;
    spec.timeout_s = 60;
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded()) << result.err;
    return result.out;
}

TEST(BuildRouteFormat, ShellEvalGivesBackTheFlagsAndExportsTheEnvironment) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-format-");
    ASSERT_TRUE(write_file(dir / "route.sh", format_build_route(tile_route(), "shell")));
    std::string out = run({"sh", "-c", ". ./route.sh && eval \"set -- $ROUTETUNE_FLAGS\" && printf '[%s]' \"$@\" && "
                                       "printf ' %s|%s|%s' \"$TILE\" \"$NOTE\" \"$ROUTETUNE_ROUTE\" && sh -c 'printf \" %s\" \"$TILE\"'"},
                          dir);
    EXPECT_EQ(out, "[-O3][-DNAME=a b][-DCOST=$5#x] 16|it's $HOME|-O=3 -tile=16 16");
}

TEST(BuildRouteFormat, MakeIncludeGivesBackTheFlagsAndExportsTheEnvironmentToRecipes) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-format-");
    ASSERT_TRUE(write_file(dir / "route.mk", format_build_route(tile_route(), "make")));
    ASSERT_TRUE(write_file(dir / "Makefile", "include route.mk\nall:\n\t@printf '[%s]' $(ROUTETUNE_FLAGS); printf ' %s|%s' \"$$TILE\" \"$$NOTE\"\n"));
    EXPECT_EQ(run({"make", "-s"}, dir), "[-O3][-DNAME=a b][-DCOST=$5#x] 16|it's $HOME");
}

TEST(BuildRouteFormat, CmakeIncludeGivesOneListItemPerFlagAndTheEnvironment) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-format-");
    ASSERT_TRUE(write_file(dir / "route.cmake", format_build_route(tile_route(), "cmake")));
    ASSERT_TRUE(write_file(dir / "show.cmake", "include(route.cmake)\nforeach(f IN LISTS ROUTETUNE_FLAGS)\n"
                                               "  message(\"[${f}]\")\nendforeach()\nmessage(\"${ROUTETUNE_ENVIRONMENT}|${ROUTETUNE_SPEC}\")\n"));
    ProcessSpec spec;
    spec.argv = {"cmake", "-P", "show.cmake"};
    spec.cwd = dir;
    spec.timeout_s = 60;
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded()) << result.err;
    EXPECT_EQ(result.err, "[-O3]\n[-DNAME=a b]\n[-DCOST=$5#x]\nNOTE=it's $HOME;TILE=16|/p/spec.toml\n");
}

TEST(BuildRouteFormat, EnvAndJsonHoldEverything) {
    EXPECT_EQ(format_build_route(tile_route(), "env"),
              "ROUTETUNE_ROUTE=-O=3 -tile=16\nROUTETUNE_SOURCE=lock\nROUTETUNE_FLAGS=-O3 '-DNAME=a b' '-DCOST=$5#x'\n"
              "NOTE=it's $HOME\nTILE=16\n");
    auto json = nlohmann::json::parse(format_build_route(tile_route(), "json"));
    EXPECT_EQ(json.at("flags"), nlohmann::json({"-O3", "-DNAME=a b", "-DCOST=$5#x"}));
    EXPECT_EQ(json.at("environment").at("TILE"), "16");
    EXPECT_EQ(json.at("source"), "lock");
    EXPECT_FALSE(json.contains("refusal"));
}

TEST(BuildRouteFormat, WhatAFormatCannotHoldIsRefusedNamingIt) {
    BuildRoute route = tile_route();
    route.environment["MULTI"] = "a\nb";
    for (const char* format : {"make", "cmake", "env"}) {
        try {
            format_build_route(route, format);
            ADD_FAILURE() << format << " held a line break";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("MULTI"), std::string::npos) << e.what();
        }
    }
    EXPECT_NO_THROW(format_build_route(route, "json"));
    BuildRoute semicolon = tile_route();
    semicolon.flags.push_back("-Wl,-rpath,a;b");
    EXPECT_THROW(format_build_route(semicolon, "cmake"), UsageError);
    BuildRoute bad_name = tile_route();
    bad_name.environment["1X"] = "1";
    EXPECT_THROW(format_build_route(bad_name, "shell"), UsageError);
    EXPECT_THROW(format_build_route(tile_route(), "yaml"), UsageError);
}

}  // namespace
}  // namespace routetune
