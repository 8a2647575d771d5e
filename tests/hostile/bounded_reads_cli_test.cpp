// Every file routetune reads is bounded and must be a regular file (issue 25): a golden
// reference larger than [run] max_output_mb is refused up front naming the limit (no output
// could match it); a FIFO a run leaves at {output} or {metrics}, or a build at {artifact}, fails
// that candidate at once instead of blocking routetune forever; and a reference that does not
// fit a memory limit ends in a plain message (or works), never a bare std::bad_alloc. Before,
// each FIFO hung the study, the large reference was read whole, and the memory case ended in
// "failure: std::bad_alloc".
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

// A study of the custom adapter whose build copies run_b.sh (route -k=b) or run_ok.sh (the
// others) to $1 = {artifact}; build_b, when given, replaces -k=b's copy. run is the spec's [run]
// and [timing] tables; extra (cases) is appended.
fs::path study(const std::string& run_ok, const std::string& run_b, const std::string& run,
               const std::string& extra = "", const std::string& build_b = "cp run_b.sh \"$1\"",
               const std::string& metric = "exact") {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-bounded-");
    write_file(dir / "spec.toml",
               "name = \"bounded\"\n[compiler]\nadapter = \"custom\"\n[build]\ncommand = [\"sh\", \"build.sh\", \"{artifact}\"]\n"
               "timeout_s = 30\n" + run + "[accuracy]\nformat = \"text\"\nmetric = \"" + metric + "\"\n" + extra +
                   "[[knob]]\nname = \"-k\"\nvalues = [\"a\", \"b\", \"c\"]\ndefault = \"a\"\nenv = \"K\"\n"
                   "[search]\nroutes = \"-k=[a|b|c]\"\n");
    write_file(dir / "run_ok.sh", run_ok + "\n");
    write_file(dir / "run_b.sh", run_b + "\n");
    write_file(dir / "build.sh", "if [ \"$K\" = b ]; then " + build_b + "; else cp run_ok.sh \"$1\"; fi\n");
    return dir;
}

std::string run_table(const std::string& command, const std::string& source = "process", const std::string& more = "") {
    return "[run]\ncommand = " + command + "\ntimeout_s = 20\n" + more + "[timing]\nsource = \"" + source +
           "\"\nwarmup = 0\nrepeats = 1\n";
}

std::map<std::string, json> by_route(const CliResult& r) {
    std::map<std::string, json> out;
    json summary = json::parse(r.out);
    for (const auto& e : summary.at("evaluations")) out[e.at("route").get<std::string>()] = e;
    return out;
}

void expect_b_failed(const CliResult& r, const std::string& status, const std::string& reason) {
    ASSERT_EQ(r.exit_code, 0) << r.err << r.out.substr(0, 2000);
    auto evaluations = by_route(r);
    EXPECT_EQ(evaluations["-k=b"].at("status"), status) << evaluations["-k=b"].dump();
    EXPECT_NE(evaluations["-k=b"].at("message").get<std::string>().find(reason), std::string::npos)
        << evaluations["-k=b"].dump();
    EXPECT_EQ(evaluations["-k=c"].at("status"), "ok") << "the study did not go on";
}

TEST(BoundedReads, AReferenceLargerThanMaxOutputIsRefusedNamingTheLimit) {
    fs::path dir = study("echo 1", "echo 1", run_table("[\"sh\", \"{artifact}\"]", "process", "max_output_mb = 1\n"),
                         "[[case]]\nname = \"big\"\nreference = \"big.txt\"\n");
    write_file(dir / "big.txt", std::string(2 << 20, '1'));
    CliResult r = run_cli({"tune", "spec.toml"}, dir, {}, 60);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("larger than 1 MiB"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("max_output_mb = 1"), std::string::npos) << r.err;
}

TEST(BoundedReads, AFifoAtOutputFailsTheRunAndTheStudyGoesOn) {
    fs::path dir = study("echo 1 > \"$1\"", "mkfifo \"$1\"", run_table("[\"sh\", \"{artifact}\", \"{output}\"]"));
    expect_b_failed(run_cli({"tune", "spec.toml", "--json"}, dir, {}, 60), "run_failed", "is a FIFO");
}

TEST(BoundedReads, AFifoAtMetricsFailsTheRunAndTheStudyGoesOn) {
    fs::path dir = study("echo '{\"time_ms\": 1}' > \"$1\"; echo 1", "mkfifo \"$1\"; echo 1",
                         run_table("[\"sh\", \"{artifact}\", \"{metrics}\"]", "reported"));
    expect_b_failed(run_cli({"tune", "spec.toml", "--json"}, dir, {}, 60), "run_failed", "is a FIFO");
}

TEST(BoundedReads, AFifoArtifactFailsTheBuildAndTheStudyGoesOn) {
    fs::path dir = study("echo 1", "echo 1", run_table("[\"sh\", \"{artifact}\"]"), "", "mkfifo \"$1\"");
    expect_b_failed(run_cli({"tune", "spec.toml", "--json"}, dir, {}, 60), "build_failed", "a FIFO");
}

TEST(BoundedReads, AReferenceBeyondAMemoryLimitIsAPlainMessageOrWorks) {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-bounded-");
    {
        std::ofstream large(dir / "large.txt", std::ios::binary);
        std::string chunk;
        for (int i = 0; i < (1 << 16); ++i) chunk += "1\n";
        for (int i = 0; i < 800; ++i) large << chunk;  // 100 MiB of "1\n": 52 million values
    }
    std::string cat_large = "cat '" + (dir / "large.txt").string() + "'";
    // rel_l2 parses both outputs (exact would compare the identical bytes without parsing).
    fs::path spec_dir = study(cat_large, cat_large, run_table("[\"sh\", \"{artifact}\"]", "process", "max_output_mb = 256\n"),
                              "[[case]]\nname = \"large\"\nreference = \"" + (dir / "large.txt").string() + "\"\n",
                              "cp run_b.sh \"$1\"", "rel_l2");
    // 800 MiB: enough for the bytes, not for main's vectors of values (it ended in a bare
    // std::bad_alloc); 320 MiB: too little for the bytes, which must say so plainly.
    for (const char* limit : {"--as=838860800", "--as=335544320"}) {
        remove_tree_quietly(spec_dir / ".routetune");
        ProcessSpec limited;
        limited.argv = {"prlimit", limit, ROUTETUNE_BINARY, "tune", "spec.toml", "--json"};
        limited.cwd = spec_dir;
        limited.env = {{"XDG_CACHE_HOME", shared_cache_home().string()}};
        limited.timeout_s = 300;
        ProcessResult result = run_process(limited);
        EXPECT_EQ(result.err.find("std::bad_alloc"), std::string::npos) << limit << ": " << result.err;
        EXPECT_TRUE(result.succeeded() || result.err.find("memory") != std::string::npos)
            << limit << ": exit " << result.exit_code << ": " << result.err;
    }
}

}  // namespace
}  // namespace routetune::e2e
