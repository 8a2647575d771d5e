// Byte-identical candidates with the real gcc, one study on SQLite (e2e/identical_knobs.hpp
// says how it is made): each artifact is measured once (warm-up + repeats; the default's also
// beside each measured candidate, paired), the identical candidates
// are "= (default)" in the table, the Markdown, both JSON outputs and the HTML page, and none
// of them is ever shown as a gain.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "e2e/cli_harness.hpp"
#include "e2e/identical_knobs.hpp"

namespace routetune::e2e {
namespace {

using nlohmann::json;

// The evaluations of a summary JSON (tune --json or report --format json) by route.
std::map<std::string, json> by_route(const json& summary) {
    std::map<std::string, json> evaluations;
    for (const auto& e : summary.at("evaluations")) evaluations[e.at("route").get<std::string>()] = e;
    return evaluations;
}

void expect_identical_in_json(const json& summary, const KnobStudy& s, const std::string& where) {
    auto evaluations = by_route(summary);
    for (const Flip& f : s.identical) {
        SCOPED_TRACE(where + ": " + route_of(f));
        ASSERT_EQ(evaluations.count(route_of(f)), 1u);
        const json& e = evaluations.at(route_of(f));
        EXPECT_EQ(e.at("same_as"), "(default)");
        EXPECT_EQ(e.at("status"), "ok");
        EXPECT_DOUBLE_EQ(e.at("speedup").get<double>(), 1.0) << "the default's own figures: never a gain";
        EXPECT_FALSE(e.at("confirmed").get<bool>());
        EXPECT_EQ(e.at("time"), evaluations.at("").at("time"));
    }
    const json& changed = evaluations.at(route_of(s.changing));
    EXPECT_FALSE(changed.contains("same_as")) << where << ": absent when unique";
    EXPECT_TRUE(changed.at("speedup").is_number());
    EXPECT_FALSE(evaluations.at("").contains("same_as"));
}

// The report line of route in a table or Markdown text.
std::string line_of(const std::string& text, const std::string& route) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.find(" " + route + " ") != std::string::npos) return line;
    return "";
}

class SameArtifactCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        setup_ = new KnobStudy(prepare());
        write_file(setup_->dir / "sameas.toml", spec_text(*setup_));
        tune_ = new CliResult(run_cli({"tune", "sameas.toml", "--cache", "s.sqlite", "--json"}, setup_->dir));
    }
    static void TearDownTestSuite() {
        remove_tree_quietly(setup_->dir);
        delete setup_;
        delete tune_;
    }
    void SetUp() override {
        ASSERT_GE(setup_->identical.size(), 2u) << "this gcc changes the binary for almost every knob tried";
        ASSERT_FALSE(setup_->changing.knob.empty());
        ASSERT_EQ(tune_->exit_code, 0) << tune_->err;
    }
    CliResult report(const std::vector<std::string>& extra) const {
        std::vector<std::string> args{"report", "s.sqlite"};
        args.insert(args.end(), extra.begin(), extra.end());
        CliResult r = run_cli(args, setup_->dir);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        return r;
    }
    static KnobStudy* setup_;
    static CliResult* tune_;
};

KnobStudy* SameArtifactCli::setup_ = nullptr;
CliResult* SameArtifactCli::tune_ = nullptr;

// The identical candidates add no run of anything (the default's binary also runs beside the
// one measured candidate and beside itself: paired timing).
TEST_F(SameArtifactCli, EachArtifactRunsOnce) {
    std::map<std::string, int> runs = runs_by_sha(setup_->dir);
    EXPECT_EQ(runs.size(), 2u) << "the default's binary and the changed one";
    ASSERT_EQ(runs.count(setup_->default_sha), 1u);
    expect_each_artifact_measured_once(runs, setup_->default_sha, 1);
}

TEST_F(SameArtifactCli, TuneJsonAndReportJsonShowTheIdenticalOnesAsTheDefault) {
    expect_identical_in_json(json::parse(tune_->out), *setup_, "tune --json");
    expect_identical_in_json(json::parse(report({"--format", "json"}).out), *setup_, "report --format json");
}

TEST_F(SameArtifactCli, TableAndMarkdownSayEqualsDefaultAndNeverASpeedup) {
    std::string table = report({}).out;
    std::string markdown = report({"--format", "markdown"}).out;
    for (const Flip& f : setup_->identical) {
        std::string row = line_of(table, route_of(f));
        EXPECT_NE(row.find("= (default)"), std::string::npos) << table;
        EXPECT_EQ(row.find("×"), std::string::npos) << "no speedup on the row: " << row;
        std::string md = line_of(markdown, route_of(f));
        EXPECT_NE(md.find("| = (default) |"), std::string::npos) << markdown;
        EXPECT_EQ(md.find("×"), std::string::npos) << md;
    }
    EXPECT_EQ(line_of(table, route_of(setup_->changing)).find("= ("), std::string::npos);
}

TEST_F(SameArtifactCli, TheHtmlPageShowsThemAsTheDefaultAndChartsNone) {
    CliResult r = report({"--format", "html", "--output", (setup_->dir / "s.html").string()});
    std::string html = read_file(setup_->dir / "s.html").value_or("");
    for (const Flip& f : setup_->identical) {
        std::string cell = "<span class=\"tok\">" + route_of(f) + "</span></td>";
        auto at = html.find(cell);
        ASSERT_NE(at, std::string::npos) << route_of(f);
        std::string row = html.substr(at, html.find("</tr>", at) - at);
        EXPECT_NE(row.find("<td class=\"num\">= (default)</td>"), std::string::npos) << row;
        EXPECT_EQ(row.find("×"), std::string::npos) << row;
    }
    auto start = html.find("<script type=\"application/json\" id=\"study-data\">");
    ASSERT_NE(start, std::string::npos);
    start = html.find('>', start) + 1;
    json data = json::parse(html.substr(start, html.find("</script>", start) - start));
    const json& study = data.at("studies").at(0);
    std::set<std::string> identical;
    for (const Flip& f : setup_->identical) identical.insert(route_of(f));
    for (const auto& row : study.at("routes")) EXPECT_EQ(identical.count(row.at("route").get<std::string>()), 0u);
    for (const auto& row : study.at("samples")) EXPECT_EQ(identical.count(row.at("route").get<std::string>()), 0u);
    auto outcome = html.find("<p class=\"outcome\"");
    EXPECT_NE(outcome, std::string::npos);
    EXPECT_LT(outcome, html.find("<table>")) << "the outcome line comes first";
}

}  // namespace
}  // namespace routetune::e2e
