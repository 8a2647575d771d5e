#include "report/html_report.hpp"

#include "report/html_chart_data.hpp"
#include "report/html_sections.hpp"

#include <gtest/gtest.h>

#include "unit/sample_summary.hpp"

namespace routetune {
namespace {

StudySummary hostile_summary() {
    StudySummary s = testing::sample_summary();
    s.study = "<script>alert('study')</script>";
    s.expression = "-k=[a|b] && \"x\"";
    s.evaluations[4].message = "error: <script>alert(1)</script> & \"quoted\"";
    s.fingerprint["compiler"] = "<b>gcc</b>";
    s.winner_artifact = "/tmp/<img src=x onerror=alert(2)>";
    return s;
}

TEST(HtmlReport, EscapesEveryCharacterThatMatters) {
    EXPECT_EQ(escape_html("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    EXPECT_EQ(escape_html("plain -O=3"), "plain -O=3");
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

TEST(HtmlReport, StudyTextNeverBecomesMarkup) {
    std::string page = html_report(hostile_summary(), "rel_l2");
    EXPECT_EQ(count(page, "<script"), 4u) << "the page's own scripts only";
    EXPECT_EQ(page.find("<script>alert('study')"), std::string::npos);
    EXPECT_EQ(page.find("<img"), std::string::npos);
    EXPECT_EQ(page.find("<script>alert(1)"), std::string::npos);
    EXPECT_NE(page.find("<td>error: &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;</td>"),
              std::string::npos);
    EXPECT_NE(page.find("<title>routetune study: &lt;script&gt;alert(&#39;study&#39;)&lt;/script&gt;</title>"),
              std::string::npos);
    EXPECT_NE(page.find("<td>/tmp/&lt;img src=x onerror=alert(2)&gt;</td>"), std::string::npos);
    EXPECT_NE(page.find("<td>-k=[a|b] &amp;&amp; &quot;x&quot;</td>"), std::string::npos);
    auto data = page.find("<script type=\"application/json\" id=\"study-data\">");
    ASSERT_NE(data, std::string::npos);
    std::string json = page.substr(data, page.find("</script>", data) - data);
    EXPECT_NE(json.find("\\u003cscript>alert('study')\\u003c/script>"), std::string::npos) << json;
}

TEST(HtmlReport, SelfContainedPageThatFetchesNothing) {
    std::string page = html_report(testing::sample_summary(), "rel_l2");
    EXPECT_EQ(page.substr(0, 16), "<!DOCTYPE html>\n");
    EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");
    EXPECT_EQ(page.find("src="), std::string::npos);
    EXPECT_EQ(page.find("href="), std::string::npos);
    EXPECT_NE(page.find("content=\"default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'\""),
              std::string::npos);
    EXPECT_NE(page.find("Chart.js v3"), std::string::npos) << "Chart.js is inlined";
    EXPECT_EQ(page.find("connect-src"), std::string::npos);
    HtmlOptions live;
    live.live_poll_s = 2;
    std::string served = html_report({{testing::sample_summary(), "rel_l2"}}, live);
    EXPECT_NE(served.find("; connect-src 'self'\""), std::string::npos);
    EXPECT_NE(served.find("\"live\":2"), std::string::npos);
}

TEST(HtmlReport, EveryChartOfAStudyAndTheRowsInOrder) {
    std::string page = html_report(testing::sample_summary(), "rel_l2");
    for (const char* kind : {"progress", "trials", "routes", "samples", "failures", "effects", "confirmation"})
        EXPECT_EQ(count(page, std::string("data-chart=\"") + kind + "\""), 1u) << kind;
    EXPECT_EQ(page.find("data-chart=\"compare-progress\""), std::string::npos);
    const std::string first =
        "<tr class=\"ok\"><td class=\"num\">1</td><td class=\"route\"><span class=\"tok\">-O=3</span></td><td>ok</td>"
        "<td class=\"num\">16.000</td><td class=\"num\">1.25× [1.21, 1.29]</td><td class=\"num\">1.25× [1.20, 1.30]</td>"
        "<td class=\"num\">1e-09</td><td></td></tr>\n";
    const std::string failed =
        "<tr class=\"fail\"><td class=\"num\">5</td><td class=\"route\"><span class=\"tok\">-march=native</span></td><td>build_failed</td>"
        "<td class=\"num\">-</td><td class=\"num\">-</td><td class=\"num\">-</td><td class=\"num\">-</td>"
        "<td>gcc: error: bad value for -march</td></tr>\n";
    auto first_at = page.find(first);
    auto failed_at = page.find(failed);
    ASSERT_NE(first_at, std::string::npos);
    ASSERT_NE(failed_at, std::string::npos);
    EXPECT_LT(first_at, failed_at);
    EXPECT_NE(page.find("<th>loss (rel_l2)</th>"), std::string::npos);
    EXPECT_NE(page.find("<tr><td>run_timeout</td><td class=\"num\">0</td></tr>\n"), std::string::npos);
    EXPECT_NE(page.find("<tr><th>total</th><td class=\"num\">6</td></tr>\n"), std::string::npos);
    EXPECT_NE(page.find("<tr><th>artifacts kept</th><td>4.0 KiB</td></tr>"), std::string::npos);
    EXPECT_NE(page.find("<td class=\"num\">1.25× [1.20×, 1.30×]</td>"), std::string::npos) << "confirmation";
    EXPECT_NE(page.find("<tr><th>compiler</th><td>gcc 12.2.0</td></tr>"), std::string::npos) << "fingerprint";
}

// The outcome line opens the study; an unconfirmed figure says so; a twin's row says what it
// equals; the best-so-far curve's points say whether their best route was confirmed.
TEST(HtmlReport, TheOutcomeComesFirstAndUnconfirmedFiguresAreMarked) {
    StudySummary s = testing::sample_with_default_twin();
    std::string page = html_report(s, "");
    auto outcome = page.find("<p class=\"outcome\" data-outcome=\"improved\">improved: -O=3 is 1.25× as fast");
    ASSERT_NE(outcome, std::string::npos);
    EXPECT_LT(outcome, page.find("<table>")) << "before the header table";
    EXPECT_LT(outcome, page.find("<canvas")) << "before the charts";
    EXPECT_NE(page.find("<td class=\"num\">0.80× [0.77, 0.83]</td><td class=\"num unconfirmed\">unconfirmed</td>"),
              std::string::npos);
    EXPECT_NE(page.find("<tr class=\"ok same-as\"><td class=\"num\">3</td><td class=\"route\"><span class=\"tok\">-fgcse-sm=on</span></td><td>ok</td>"
                        "<td class=\"num\">20.000</td><td class=\"num\">= (default)</td><td class=\"num\">-</td>"),
              std::string::npos);
    nlohmann::json progress = chart_data(s).at("progress");
    // finish order: default (best: the default), -funroll-loops=on (slower), -O=3 (confirmed),
    // then the rest (-O=3 stays best)
    ASSERT_GE(progress.size(), 3u);
    for (const auto& point : progress) EXPECT_TRUE(point.at(2).get<bool>()) << point.dump();
    s.confirmations.clear();
    s.winner.reset();
    nlohmann::json unconfirmed = chart_data(s).at("progress");
    EXPECT_TRUE(unconfirmed.at(1).at(2).get<bool>()) << "the default is still the best";
    EXPECT_FALSE(unconfirmed.at(2).at(2).get<bool>()) << "-O=3 leads, unconfirmed";
    auto routes = chart_data(s).at("routes");
    for (const auto& row : routes) EXPECT_NE(row.at("route"), "-fgcse-sm=on") << "a twin's answer is no measurement";
}

TEST(HtmlChartData, SearchSpeedupsAreThePairedOnes) {
    StudySummary s = testing::sample_summary();
    s.evaluations[1].paired = {{1.5, 1.5, 1.4, 1.6, 1.5}, {1, 1, 1, 1, 1}};  // -funroll-loops=on: 0.8x alone, 1.5x paired
    nlohmann::json data = chart_data(s);
    EXPECT_EQ(data["routes"][0]["route"], "-funroll-loops=on");
    EXPECT_DOUBLE_EQ(data["routes"][0]["speedup"].get<double>(), 1.5);
    EXPECT_DOUBLE_EQ(data["routes"][0]["low"].get<double>(), 1.4);
    EXPECT_DOUBLE_EQ(data["routes"][0]["high"].get<double>(), 1.6);
    EXPECT_DOUBLE_EQ(data["progress"][1][1].get<double>(), 1.5) << "the best-so-far curve follows it";
}

TEST(HtmlReport, SeveralStudiesAreComparedFirst) {
    StudySummary other = testing::sample_summary();
    other.study = "matmul-random";
    other.search = "random";
    other.winner.reset();
    other.outcome = Outcome::DefaultStays;
    std::string page = html_report({{testing::sample_summary(), "rel_l2"}, {other, "rel_l2"}});
    EXPECT_EQ(count(page, "data-chart=\"compare-progress\""), 1u);
    EXPECT_EQ(count(page, "data-chart=\"progress\""), 2u);
    EXPECT_EQ(count(page, "data-study=\"1\""), 7u);
    EXPECT_LT(page.find("id=\"comparison\""), page.find("id=\"study-0\""));
    EXPECT_NE(page.find("<td>matmul-random</td><td>random</td>"), std::string::npos);
    EXPECT_NE(page.find("<td>default-stays</td><td class=\"route\"><span class=\"tok\">none</span></td><td class=\"num\">-</td>"),
              std::string::npos);
}

TEST(HtmlReport, StateChangesWhenAnEvaluationLands) {
    StudySummary s = testing::sample_summary();
    std::string before = study_state({{s, ""}});
    s.evaluations.back().status = Status::Ok;
    EXPECT_NE(study_state({{s, ""}}), before);
    EXPECT_EQ(study_state({{s, ""}}), study_state({{s, "other metric"}}));
}

// A value is one unbreakable token (the browser broke "-march=x86-64" at its hyphen when the
// whole cell could break anywhere); lines break only between values.
TEST(HtmlReport, ARoutesValuesAreNeverBrokenAcrossLines) {
    EXPECT_EQ(html_route_cell("-O=3  -march=x86-64 -fcf-protection=<none>"),
              "<td class=\"route\"><span class=\"tok\">-O=3</span> <span class=\"tok\">-march=x86-64</span> "
              "<span class=\"tok\">-fcf-protection=&lt;none&gt;</span></td>");
    EXPECT_EQ(html_route_cell(""), "<td class=\"route\"></td>");
    std::string page = html_report({{testing::sample_summary(), "rel_l2"}});
    EXPECT_NE(page.find("td.route .tok{white-space:nowrap}"), std::string::npos);
    EXPECT_EQ(page.find("break-word"), std::string::npos) << "a cell that breaks anywhere cuts values";
}

}  // namespace
}  // namespace routetune
