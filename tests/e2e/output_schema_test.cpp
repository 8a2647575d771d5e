// Every JSON document routetune prints carries "schema_version" first (one writer,
// versioned_json_text): the summary of tune and report, the dry-run plan, the expansion, the
// catalog, the simulation, and the governance commands' results (promote, verify, flags,
// review, audit, inspect), on the governance example with the real GCC.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "e2e/cli_harness.hpp"
#include "e2e/governance_harness.hpp"
#include "util/output_schema.hpp"

namespace routetune::e2e {
namespace {

// Checks that r succeeded (or exited with allowed_exit) and printed a document whose first key
// is "schema_version" holding kOutputSchemaVersion.
void expect_versioned(const std::string& what, const CliResult& r, int allowed_exit = 0) {
    ASSERT_EQ(r.exit_code, allowed_exit) << what << ": " << r.err;
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << what << " printed no JSON: " << r.out;
    ASSERT_TRUE(doc.is_object() && !doc.empty()) << what;
    EXPECT_EQ(doc.begin().key(), "schema_version") << what;
    EXPECT_EQ(doc.begin().value(), kOutputSchemaVersion) << what;
}

TEST(OutputSchema, EveryPrintedJsonDocumentStartsWithItsSchemaVersion) {
    fs::path dir = scratch_example(false);
    expect_versioned("tune --dry-run --json", run_cli({"tune", "spec.toml", "--dry-run", "--json"}, dir));
    expect_versioned("expand --json", run_cli({"expand", "spec.toml", "--json"}, dir));
    expect_versioned("knobs --json", run_cli({"knobs", "spec.toml", "--json", "--filter", "-O*"}, dir));
    expect_versioned("tune --json", run_cli({"tune", "spec.toml", "--json", "--output", "kernel.bin"}, dir));
    expect_versioned("inspect --json", run_cli({"inspect", "kernel.bin", "--json"}, dir));
    expect_versioned("report --format json", run_cli({"report", kStore, "--format", "json"}, dir));
    expect_versioned("simulate --json", run_cli({"simulate", kStore, "--seeds", "2", "--budget", "3", "--json"}, dir));
    expect_versioned("promote --json", run_cli({"promote", kStore, "--lock", kLock, "--json"}, dir));
    expect_versioned("verify --json", run_cli({"verify", kLock, "--json"}, dir));
    expect_versioned("flags --format json", run_cli({"flags", kLock, "--format", "json"}, dir));
    CliResult review = run_cli({"review", kLock, "--json"}, dir);
    expect_versioned("review --json", review, review.exit_code == 5 ? 5 : 0);
    expect_versioned("audit --json", run_cli({"audit", "--audit", kLog, "--json"}, dir));
}

}  // namespace
}  // namespace routetune::e2e
