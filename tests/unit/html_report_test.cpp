#include "report/html_report.hpp"

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

TEST(HtmlReport, StudyTextNeverBecomesMarkup) {
    std::string page = html_report(hostile_summary(), "rel_l2");
    EXPECT_EQ(page.find("<script"), std::string::npos) << page;
    EXPECT_EQ(page.find("<img"), std::string::npos) << page;
    EXPECT_NE(page.find("<td>error: &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;</td>"),
              std::string::npos)
        << page;
    EXPECT_NE(page.find("<title>routetune study: &lt;script&gt;alert(&#39;study&#39;)&lt;/script&gt;</title>"),
              std::string::npos)
        << page;
    EXPECT_NE(page.find("<td>/tmp/&lt;img src=x onerror=alert(2)&gt;</td>"), std::string::npos) << page;
    EXPECT_NE(page.find("<td>-k=[a|b] &amp;&amp; &quot;x&quot;</td>"), std::string::npos) << page;
}

TEST(HtmlReport, SelfContainedPageWithTheRowsInOrder) {
    std::string page = html_report(testing::sample_summary(), "rel_l2");
    EXPECT_EQ(page.substr(0, 16), "<!DOCTYPE html>\n");
    EXPECT_EQ(page.substr(page.size() - 8), "</html>\n");
    EXPECT_EQ(page.find("src="), std::string::npos);
    EXPECT_EQ(page.find("href="), std::string::npos);
    EXPECT_NE(page.find("<style>"), std::string::npos);
    const std::string first =
        "<tr class=\"ok\"><td class=\"num\">1</td><td class=\"route\">-O=3</td><td>ok</td>"
        "<td class=\"num\">16.000</td><td class=\"num\">1.25×</td><td class=\"num\">1e-09</td><td></td></tr>\n";
    const std::string failed =
        "<tr class=\"fail\"><td class=\"num\">5</td><td class=\"route\">-march=native</td><td>build_failed</td>"
        "<td class=\"num\">-</td><td class=\"num\">-</td><td class=\"num\">-</td>"
        "<td>gcc: error: bad value for -march</td></tr>\n";
    auto first_at = page.find(first);
    auto failed_at = page.find(failed);
    ASSERT_NE(first_at, std::string::npos) << page;
    ASSERT_NE(failed_at, std::string::npos) << page;
    EXPECT_LT(first_at, failed_at);
    EXPECT_NE(page.find("<th>loss (rel_l2)</th>"), std::string::npos);
    EXPECT_NE(page.find("<tr><td>run_timeout</td><td class=\"num\">0</td></tr>\n"), std::string::npos);
    EXPECT_NE(page.find("<tr><th>total</th><td class=\"num\">6</td></tr>\n"), std::string::npos);
    EXPECT_NE(page.find("<p>Artifacts kept: 4096 bytes.</p>"), std::string::npos);
}

}  // namespace
}  // namespace routetune
