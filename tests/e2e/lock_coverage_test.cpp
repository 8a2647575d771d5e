// What a lock covers and what `flags` gives a build, end to end with the real GCC on a promoted
// copy of tests/fixtures/tiles (route -O=3 -tile=16: flags -O3 and TILE=16): a changed, added or
// removed [build] input, a different compiler first on PATH and an overwritten locked artifact
// each make the lock stale (exit 3, naming the file); every --format carries the environment;
// a missing, unreadable or stale lock prints no route, or with --fallback the spec's default
// route, logged.
#include <gtest/gtest.h>

#include "e2e/cli_harness.hpp"
#include "e2e/promoted_tiles.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

const std::string kLock = "routetune.lock.json";

TEST(LockCoverage, AChangedAddedOrRemovedBuildInputIsStaleNamingTheFile) {
    fs::path dir = promoted_tiles();
    json lock = json::parse(*read_file(dir / kLock));
    EXPECT_EQ(lock.at("inputs").size(), 2u) << lock.at("inputs").dump();
    EXPECT_TRUE(lock.at("inputs").contains("tiles.c")) << lock.at("inputs").dump();
    CliResult valid = run_cli({"verify", kLock}, dir);
    ASSERT_EQ(valid.exit_code, 0) << valid.out << valid.err;

    std::string source = *read_file(dir / "tiles.c");
    ASSERT_TRUE(write_file(dir / "tiles.c", source + "/* edited after promotion */\n"));
    CliResult changed = run_cli({"verify", kLock, "--json"}, dir);
    EXPECT_EQ(changed.exit_code, 3) << changed.out << changed.err;
    EXPECT_EQ(difference_fields(changed.out), std::set<std::string>{"input.tiles.c"}) << changed.out;
    CliResult flags = run_cli({"flags", kLock}, dir);
    EXPECT_EQ(flags.exit_code, 3);
    EXPECT_EQ(flags.out, "");
    EXPECT_NE(flags.err.find("input.tiles.c"), std::string::npos) << flags.err;
    ASSERT_TRUE(write_file(dir / "tiles.c", source));

    ASSERT_TRUE(write_file(dir / "extra.c", "int extra;\n"));
    CliResult added = run_cli({"verify", kLock, "--json"}, dir);
    EXPECT_EQ(added.exit_code, 3) << added.out;
    EXPECT_EQ(difference_fields(added.out), std::set<std::string>{"input.extra.c"}) << added.out;
    EXPECT_EQ(json_of(added.out)["differences"][0]["locked"], "(absent)");
    fs::remove(dir / "extra.c");

    fs::remove(dir / "tiles.h");
    CliResult removed = run_cli({"verify", kLock, "--json"}, dir);
    EXPECT_EQ(removed.exit_code, 3) << removed.out;
    EXPECT_EQ(difference_fields(removed.out), std::set<std::string>{"input.tiles.h"}) << removed.out;
    EXPECT_EQ(json_of(removed.out)["differences"][0]["current"], "(absent)");
}

TEST(LockCoverage, ADifferentCompilerFirstOnPathMakesTheLockStale) {
    fs::path dir = promoted_tiles();
    fs::path gcc = find_executable("gcc");
    ASSERT_FALSE(gcc.empty());
    fs::path shadow = dir / "shadow-bin";
    fs::create_directories(shadow);
    ASSERT_TRUE(write_file(shadow / "gcc", "#!/bin/sh\n# another gcc, first on PATH\nexec " + gcc.string() + " \"$@\"\n"));
    fs::permissions(shadow / "gcc", fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
    std::map<std::string, std::string> path{{"PATH", shadow.string() + ":" + std::getenv("PATH")}};
    CliResult verified = run_cli({"verify", kLock, "--json"}, dir, path);
    EXPECT_EQ(verified.exit_code, 3) << verified.out << verified.err;
    std::set<std::string> fields = difference_fields(verified.out);
    EXPECT_TRUE(fields.count("compiler.path")) << verified.out;
    EXPECT_TRUE(fields.count("compiler.sha256")) << verified.out;
    EXPECT_NE(verified.out.find((shadow / "gcc").string()), std::string::npos) << verified.out;
    EXPECT_EQ(run_cli({"flags", kLock}, dir, path).exit_code, 3);
    EXPECT_EQ(run_cli({"verify", kLock}, dir).exit_code, 0) << "the usual PATH finds the locked compiler";
}

TEST(LockCoverage, AnOverwrittenLockedArtifactIsStaleAndReviewDoesNotKeepIt) {
    fs::path dir = promoted_tiles();
    json lock = json::parse(*read_file(dir / kLock));
    fs::path artifact = dir / lock.at("artifact").get<std::string>();
    ASSERT_TRUE(fs::is_regular_file(artifact)) << artifact;
    ASSERT_TRUE(write_file(artifact, "#!/bin/sh\necho not the promoted build\n"));
    CliResult verified = run_cli({"verify", kLock, "--json"}, dir);
    EXPECT_EQ(verified.exit_code, 3) << verified.out << verified.err;
    EXPECT_EQ(difference_fields(verified.out), std::set<std::string>{"artifact.sha256"}) << verified.out;
    CliResult reviewed = run_cli({"review", kLock, "--json"}, dir);
    EXPECT_NE(json_of(reviewed.out)["recommendation"], "keep") << reviewed.out << reviewed.err;
    EXPECT_NE(reviewed.out.find("artifact.sha256"), std::string::npos) << reviewed.out;
    fs::remove(artifact);
    EXPECT_EQ(run_cli({"verify", kLock}, dir).exit_code, 0) << "an artifact that is not there is not checked";
}

TEST(FlagsFormats, EveryFormatCarriesTheFlagsAndTheRoutesEnvironment) {
    fs::path dir = promoted_tiles();
    CliResult shell = run_cli({"flags", kLock}, dir);
    ASSERT_EQ(shell.exit_code, 0) << shell.err;
    EXPECT_NE(shell.out.find("ROUTETUNE_FLAGS=-O3\n"), std::string::npos) << shell.out;
    EXPECT_NE(shell.out.find("export TILE=16\n"), std::string::npos) << shell.out;
    json as_json = json_of(run_cli({"flags", kLock, "--format", "json"}, dir).out);
    EXPECT_EQ(as_json["flags"], json::array({"-O3"})) << as_json.dump();
    EXPECT_EQ(as_json["environment"], json({{"TILE", "16"}})) << as_json.dump();
    EXPECT_EQ(as_json["source"], "lock");
    EXPECT_EQ(as_json["route"], kTilesRoute);
    EXPECT_NE(run_cli({"flags", kLock, "--format", "make"}, dir).out.find("export TILE := 16\n"), std::string::npos);
    EXPECT_NE(run_cli({"flags", kLock, "--format", "env"}, dir).out.find("\nTILE=16\n"), std::string::npos);
    EXPECT_NE(run_cli({"flags", kLock, "--format", "cmake"}, dir).out.find("set(ROUTETUNE_ENVIRONMENT \"TILE=16\")"),
              std::string::npos);
    json mapped = json_of(run_cli({"flags", "spec.toml", "--route", kTilesRoute, "--format", "json"}, dir).out);
    EXPECT_EQ(mapped["environment"], json({{"TILE", "16"}})) << mapped.dump();
    CliResult bad = run_cli({"flags", kLock, "--format", "yaml"}, dir);
    EXPECT_EQ(bad.exit_code, 2);
}

TEST(FlagsFallback, AMissingUnreadableOrStaleLockGivesNoRouteOrWithFallbackTheSpecsDefaultLogged) {
    fs::path dir = promoted_tiles();
    CliResult missing = run_cli({"flags", "gone.lock.json"}, dir);
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_EQ(missing.out, "");
    EXPECT_NE(missing.err.find("gone.lock.json: no lock file here"), std::string::npos) << missing.err;
    CliResult no_spec = run_cli({"flags", "gone.lock.json", "--fallback"}, dir);
    EXPECT_EQ(no_spec.exit_code, 2);
    EXPECT_NE(no_spec.err.find("give --spec SPEC"), std::string::npos) << no_spec.err;
    CliResult fell_back = run_cli({"flags", "gone.lock.json", "--fallback", "--spec", "spec.toml", "--format", "json"}, dir);
    ASSERT_EQ(fell_back.exit_code, 0) << fell_back.err;
    json route = json_of(fell_back.out);
    EXPECT_EQ(route["flags"], json::array({"-O2"})) << fell_back.out;
    EXPECT_EQ(route["environment"], json::object());
    EXPECT_EQ(route["source"], "fallback");
    EXPECT_EQ(route["refusal"], "missing");
    EXPECT_NE(fell_back.err.find("warning: falling back"), std::string::npos) << fell_back.err;
    json logged = last_audit_entry(dir / "gone.lock.json.audit.jsonl");
    EXPECT_EQ(logged["action"], "fallback") << logged.dump();
    EXPECT_EQ(logged["evidence"]["refusal"], "missing") << logged.dump();

    ASSERT_TRUE(write_file(dir / "garbled.lock.json", "{ not json"));
    EXPECT_EQ(run_cli({"flags", "garbled.lock.json"}, dir).exit_code, 2);
    CliResult garbled = run_cli({"flags", "garbled.lock.json", "--fallback", "--spec", "spec.toml"}, dir);
    EXPECT_EQ(garbled.exit_code, 0) << garbled.err;
    EXPECT_NE(garbled.out.find("ROUTETUNE_FLAGS=-O2"), std::string::npos) << garbled.out;
    EXPECT_EQ(last_audit_entry(dir / "garbled.lock.json.audit.jsonl")["evidence"]["refusal"], "unreadable");

    ASSERT_TRUE(write_file(dir / "tiles.h", *read_file(dir / "tiles.h") + "/* edited */\n"));
    CliResult stale = run_cli({"flags", kLock, "--fallback", "--format", "json"}, dir);
    EXPECT_EQ(stale.exit_code, 0) << stale.err;
    EXPECT_EQ(json_of(stale.out)["flags"], json::array({"-O2"})) << "the lock names its spec";
    json entry = last_audit_entry(dir / (kLock + ".audit.jsonl"));
    EXPECT_EQ(entry["action"], "fallback");
    EXPECT_EQ(entry["evidence"]["refusal"], "stale");
    EXPECT_EQ(entry["evidence"]["differences"][0]["field"], "input.tiles.h") << entry.dump();
    EXPECT_EQ(entry["proposed"], kTilesRoute);
}

}  // namespace
}  // namespace routetune::e2e
