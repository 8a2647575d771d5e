// The one rule of how a route differs from the default route (report/route_changes), and every
// report format showing routes by it: the table, Markdown, JSON (route_changes beside route) and
// HTML (the changes in the cell, the whole route in its title).
#include "report/route_changes.hpp"

#include <gtest/gtest.h>

#include "report/html_report.hpp"
#include "report/markdown_report.hpp"
#include "report/report_row.hpp"
#include "report/summary_json.hpp"
#include "report/table_report.hpp"
#include "unit/sample_summary.hpp"

namespace routetune {
namespace {

DefaultRoute tuned_default() {
    DefaultRoute base;
    base.knob_defaults = {{"-O", "2"}, {"-funroll-loops", "off"}, {"-march", "x86-64"}};
    return base;
}

std::string changes(const std::string& route, const DefaultRoute& base) {
    return route_changes_text(Route::parse(route), base);
}

TEST(RouteChanges, OnlyAssignmentsThatDifferFromTheKnobsDefaultsAreChanges) {
    DefaultRoute base = tuned_default();
    std::vector<RouteChange> found = route_changes(Route::parse("-O=2 -funroll-loops=on -march=x86-64"), base);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].knob, "-funroll-loops");
    EXPECT_EQ(found[0].value, "on");
    EXPECT_EQ(changes("-O=3 -funroll-loops=off -march=native", base), "-O=3 -march=native");
}

TEST(RouteChanges, ARouteEqualToTheDefaultInEveryKnobIsMarked) {
    DefaultRoute base = tuned_default();
    EXPECT_TRUE(route_changes(Route::parse("-O=2 -funroll-loops=off"), base).empty());
    EXPECT_EQ(changes("-O=2 -funroll-loops=off -march=x86-64", base), "= (default)");
    EXPECT_EQ(changes("", base), "(default)") << "the default route itself";
}

TEST(RouteChanges, AKnobWhoseDefaultIsUnknownIsAlwaysAChange) {
    DefaultRoute base = tuned_default();
    EXPECT_EQ(changes("-O=2 -fipa-pta=off", base), "-fipa-pta=off");
    EXPECT_EQ(changes("-O=2 -fipa-pta=off", DefaultRoute{}), "-O=2 -fipa-pta=off") << "no default known: the whole route";
}

// An imported GPT sweep's default names every knob: its own values come first, and a knob it
// assigns that a route leaves unset is a change unless the unset knob's default is that value.
TEST(RouteChanges, TheDefaultRoutesOwnAssignmentsComeBeforeTheKnobsDefaults) {
    DefaultRoute base;
    base.route = Route::parse("-a=1 -b=on -c=x");
    EXPECT_EQ(changes("-a=1 -b=off -c=x", base), "-b=off");
    EXPECT_EQ(changes("-a=2 -c=x -d=5", base), "-a=2 -d=5 -b=(unset)");
    EXPECT_EQ(changes("-a=1 -b=on -c=x", base), "(default)");
    base.knob_defaults = {{"-b", "off"}, {"-c", "x"}, {"-d", "5"}};
    EXPECT_EQ(changes("-a=1 -b=off -c=x", base), "-b=off") << "the default route's -b=on, not the knob's default, counts";
    EXPECT_EQ(changes("-a=1 -b=on -d=5", base), "= (default)") << "-c unset is its default x; -d=5 its default";
    EXPECT_EQ(changes("-a=1 -c=x", base), "-b=(unset)") << "unset -b is off, the default route's is on";
    std::vector<RouteChange> unset = route_changes(Route::parse("-a=1 -c=x"), base);
    ASSERT_EQ(unset.size(), 1u);
    EXPECT_FALSE(unset[0].value.has_value());
}

// The sample study recorded with its knobs' defaults, plus two routes: one equal to the default in
// every knob, one whose -fipa-pta has no known default.
StudySummary sample_with_knob_defaults() {
    StudySummary s = testing::sample_summary();
    s.knob_defaults = {{"-O", "2"}, {"-funroll-loops", "off"}, {"-march", "x86-64"}};
    Evaluation same = testing::evaluation("-O=2 -funroll-loops=off", "fast", Status::BuildFailed);
    Evaluation unknown = testing::evaluation("-O=2 -fipa-pta=on -funroll-loops=on", "fast", Status::BuildFailed);
    s.evaluations.push_back(same);
    s.evaluations.push_back(unknown);
    return s;
}

TEST(RouteChanges, EveryReportFormatShowsTheChanges) {
    StudySummary s = sample_with_knob_defaults();
    std::vector<std::string> shown;
    for (const auto& row : report_rows(s)) shown.push_back(row.route);
    EXPECT_NE(std::find(shown.begin(), shown.end(), "= (default)"), shown.end());
    EXPECT_NE(std::find(shown.begin(), shown.end(), "-fipa-pta=on -funroll-loops=on"), shown.end());
    EXPECT_EQ(std::count(shown.begin(), shown.end(), "-O=2 -funroll-loops=off"), 0);

    TableOptions wide;
    wide.route_width = 0;
    std::string table = table_report(s, wide);
    EXPECT_NE(table.find("  -fipa-pta=on -funroll-loops=on  build_failed"), std::string::npos) << table;
    EXPECT_NE(table.find("  = (default)                     build_failed"), std::string::npos) << table;
    EXPECT_NE(table.find("routes      shown as their difference from the default"), std::string::npos) << table;

    std::string markdown = markdown_report(s, "");
    EXPECT_NE(markdown.find("| -fipa-pta=on -funroll-loops=on | build\\_failed |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("| = (default) | build\\_failed |"), std::string::npos) << markdown;

    nlohmann::ordered_json json = summary_to_json(s, "");
    const auto& evaluations = json.at("evaluations");
    EXPECT_EQ(evaluations[6].at("route"), "-O=2 -funroll-loops=off") << "route is kept whole";
    EXPECT_EQ(evaluations[6].at("route_changes"), nlohmann::ordered_json::object());
    EXPECT_EQ(evaluations[7].at("route_changes"),
              nlohmann::ordered_json::parse(R"({"-fipa-pta": "on", "-funroll-loops": "on"})"));
    EXPECT_EQ(json.at("knob_defaults").at("-O"), "2");
    EXPECT_EQ(summary_from_json(json).knob_defaults, s.knob_defaults) << "read back";

    std::string html = html_report(s, "");
    EXPECT_NE(html.find("<td class=\"route\" title=\"-O=2 -fipa-pta=on -funroll-loops=on\" "
                        "data-route=\"-O=2 -fipa-pta=on -funroll-loops=on\"><span class=\"tok\">-fipa-pta=on</span> "
                        "<span class=\"tok\">-funroll-loops=on</span></td>"),
              std::string::npos);
    EXPECT_NE(html.find("<td class=\"route\" title=\"-O=2 -funroll-loops=off\" data-route=\"-O=2 -funroll-loops=off\">"
                        "<span class=\"tok\">= (default)</span></td>"),
              std::string::npos);
}

TEST(RouteChanges, ATwinIsNamedByItsChangesToo) {
    StudySummary s = sample_with_knob_defaults();
    Evaluation twin = testing::evaluation("-O=3 -funroll-loops=on", "fast", Status::Ok);
    twin.same_as = "-O=3 -funroll-loops=off";
    Evaluation plain_twin = testing::evaluation("-O=2 -fgcse-sm=on -march=x86-64", "fast", Status::Ok);
    plain_twin.same_as = "(default)";
    s.evaluations.push_back(twin);
    s.evaluations.push_back(plain_twin);
    std::map<std::string, std::string> vs_default;
    for (const auto& row : report_rows(s)) vs_default[row.route] = format_vs_default(row);
    EXPECT_EQ(vs_default.at("-O=3 -funroll-loops=on"), "= -O=3");
    EXPECT_EQ(vs_default.at("-fgcse-sm=on"), "= (default)");
}

TEST(RouteChanges, WithoutKnobDefaultsReportsShowWholeRoutesAndSaySo) {
    StudySummary s = testing::sample_summary();
    s.evaluations.push_back(testing::evaluation("-O=2 -funroll-loops=off", "fast", Status::BuildFailed));
    std::vector<std::string> shown;
    for (const auto& row : report_rows(s)) shown.push_back(row.route);
    EXPECT_NE(std::find(shown.begin(), shown.end(), "-O=2 -funroll-loops=off"), shown.end());
    bool said = false;
    for (const auto& field : report_header(s)) said |= field.label == "routes" && field.value.find("shown whole") == 0;
    EXPECT_TRUE(said);
}

}  // namespace
}  // namespace routetune
