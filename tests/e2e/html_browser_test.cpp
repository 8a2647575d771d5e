// The HTML report in a real browser: headless Chromium loads the page from a file, runs its
// scripts under a virtual-time budget and dumps the DOM. The page's own script marks each
// canvas data-drawn="true" once it holds pixels and sets counts on <body>; its error hook
// lists every error, console.error and Content-Security-Policy violation (any attempted
// network request is one: the policy allows none) in #page-errors. Skipped without chromium.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <sstream>
#include <utility>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {
namespace {

std::string chromium() {
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
        auto path = find_executable(name);
        if (!path.empty()) return path.string();
    }
    return "";
}

#define REQUIRE_CHROMIUM()                                                                        \
    if (chromium().empty()) GTEST_SKIP() << "chromium is not installed (Debian package chromium): " \
                                            "the HTML report's browser test did not run"

// The DOM of page (opened at #fragment when one is given) after its scripts ran.
std::string rendered_dom(const fs::path& page, const std::string& fragment = "") {
    ProcessSpec spec;
    spec.argv = {chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--user-data-dir=" + (page.parent_path() / "chromium-profile").string(),
                 "--virtual-time-budget=15000", "--window-size=1280,2000", "--dump-dom",
                 "file://" + fs::absolute(page).string() + (fragment.empty() ? "" : "#" + fragment)};
    spec.timeout_s = 120;
    spec.output_cap = 32 << 20;
    ProcessResult result = run_process(spec);
    EXPECT_TRUE(result.succeeded()) << result.err;
    return result.out;
}

std::string body_attribute(const std::string& dom, const std::string& name) {
    std::smatch m;
    std::regex body("<body[^>]*\\s" + name + "=\"([^\"]*)\"");
    return std::regex_search(dom, m, body) ? m[1].str() : "";
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

std::string page_errors(const std::string& dom) {
    auto start = dom.find("<ul id=\"page-errors\"");
    auto end = dom.find("</ul>", start);
    return start == std::string::npos ? "(no error list)" : dom.substr(start, end - start);
}

// Asserts that every chart of the page at path was drawn and nothing went wrong.
void expect_every_chart_drawn(const fs::path& path, std::size_t at_least) {
    std::string page = read_file(path).value_or("");
    std::size_t canvases = count(page, "<canvas ");
    ASSERT_GE(canvases, at_least);
    std::string dom = rendered_dom(path);
    EXPECT_EQ(body_attribute(dom, "data-ready"), "true") << page_errors(dom);
    EXPECT_EQ(body_attribute(dom, "data-charts"), std::to_string(canvases));
    EXPECT_EQ(body_attribute(dom, "data-drawn"), std::to_string(canvases)) << page_errors(dom);
    EXPECT_EQ(count(dom, "data-drawn=\"true\""), canvases);
    EXPECT_EQ(body_attribute(dom, "data-errors"), "") << page_errors(dom);
    EXPECT_EQ(count(dom, "<li>"), 0u) << page_errors(dom);
}

fs::path report_html(const std::vector<std::string>& stores, const fs::path& out) {
    std::vector<std::string> args{"report"};
    args.insert(args.end(), stores.begin(), stores.end());
    args.insert(args.end(), {"--format", "html", "--output", out.string()});
    CliResult r = run_cli(args, out.parent_path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return out;
}

// One page comparing two recorded GPU studies (both with confirmations), in a fresh folder.
fs::path gpu_comparison_page() {
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-html-");
    fs::path gpu = fs::path(ROUTETUNE_SOURCE_DIR) / "docs" / "gpu";
    return report_html({(gpu / "cuda_gemm.sqlite").string(), (gpu / "inductor_mlp.sqlite").string()}, dir / "compare.html");
}

TEST(HtmlBrowser, CpuStudyWithEveryFailureDrawsEveryChart) {
    REQUIRE_CHROMIUM();
    fs::path specs = scratch_specs();
    CliResult tune = run_cli({"tune", "fault_injection.toml", "--cache", "faults.sqlite", "--json"}, specs);
    ASSERT_EQ(tune.exit_code, 0) << tune.err;
    fs::path page = report_html({(specs / "faults.sqlite").string()}, specs / "faults.html");
    std::string html = read_file(page).value_or("");
    // Process timing on a loaded machine may leave no candidate to confirm, so the
    // confirmation chart is checked by the GPU test, whose stores hold confirmations.
    for (const char* kind : {"progress", "trials", "routes", "samples", "failures", "effects"})
        EXPECT_NE(html.find(std::string("data-chart=\"") + kind + "\""), std::string::npos) << kind;
    expect_every_chart_drawn(page, 6);
}

TEST(HtmlBrowser, GpuStudiesComparedOnOnePage) {
    REQUIRE_CHROMIUM();
    fs::path page = gpu_comparison_page();
    std::string html = read_file(page).value_or("");
    EXPECT_EQ(count(html, "data-chart=\"compare-progress\""), 1u);
    EXPECT_EQ(count(html, "<section class=\"study\""), 2u);
    EXPECT_EQ(count(html, "data-chart=\"confirmation\""), 2u);
    expect_every_chart_drawn(page, 13);
}

// The points of each best-so-far curve as the page's data marks them: confirmed, unconfirmed.
std::pair<std::size_t, std::size_t> marked_points(const nlohmann::json& study) {
    std::pair<std::size_t, std::size_t> counts{0, 0};
    for (const auto& point : study.at("progress")) ++(point.at(2).get<bool>() ? counts.first : counts.second);
    return counts;
}

std::string canvas_attribute(const std::string& dom, const std::string& id, const std::string& name) {
    std::smatch m;
    std::regex canvas("<canvas[^>]*id=\"" + id + "\"[^>]*\\s" + name + "=\"([^\"]*)\"");
    std::regex reversed("<canvas[^>]*\\s" + name + "=\"([^\"]*)\"[^>]*id=\"" + id + "\"");
    if (std::regex_search(dom, m, canvas) || std::regex_search(dom, m, reversed)) return m[1].str();
    return "";
}

// Headline honesty (issue 23): each study opens with its outcome line, and every best-so-far
// curve is drawn with its confirmed points filled and its unconfirmed ones hollow (the page
// counts the drawn points by their fill).
TEST(HtmlBrowser, OutcomeLineFirstAndTheCurveMarksConfirmedPoints) {
    REQUIRE_CHROMIUM();
    fs::path page = gpu_comparison_page();
    std::string html = read_file(page).value_or("");
    auto start = html.find("<script type=\"application/json\" id=\"study-data\">");
    ASSERT_NE(start, std::string::npos);
    start = html.find('>', start) + 1;
    nlohmann::json data = nlohmann::json::parse(html.substr(start, html.find("</script>", start) - start));
    std::string dom = rendered_dom(page);
    std::size_t all_confirmed = 0, all_unconfirmed = 0;
    for (std::size_t i = 0; i < 2; ++i) {
        auto [confirmed, unconfirmed] = marked_points(data.at("studies").at(i));
        all_confirmed += confirmed;
        all_unconfirmed += unconfirmed;
        std::string id = "chart-" + std::to_string(i) + "-progress";
        EXPECT_EQ(canvas_attribute(dom, id, "data-confirmed-points"), std::to_string(confirmed)) << id;
        EXPECT_EQ(canvas_attribute(dom, id, "data-unconfirmed-points"), std::to_string(unconfirmed)) << id;
        auto section = dom.find("<section class=\"study\" id=\"study-" + std::to_string(i) + "\">");
        ASSERT_NE(section, std::string::npos);
        auto heading_end = dom.find("</h2>", section);
        EXPECT_EQ(dom.find("<p class=\"outcome\"", heading_end), dom.find('<', heading_end + 5))
            << "the outcome line comes right after the study's heading";
    }
    EXPECT_GT(all_confirmed, 0u);
    EXPECT_GT(all_unconfirmed, 0u) << "these studies lead with unconfirmed search figures at some point";
    EXPECT_EQ(canvas_attribute(dom, "chart-0-compare-progress", "data-unconfirmed-points"),
              std::to_string(all_unconfirmed));
    EXPECT_EQ(body_attribute(dom, "data-errors"), "") << page_errors(dom);
}

// The rows of the first evaluations table in dom, each row's cells' text (tags dropped), with
// whether the row is hidden.
struct DomRow {
    std::vector<std::string> cells;
    bool hidden = false;
};
std::vector<DomRow> evaluation_rows(const std::string& dom) {
    std::vector<DomRow> rows;
    auto start = dom.find("<table class=\"evaluations\">");
    if (start == std::string::npos) return rows;
    std::string table = dom.substr(start, dom.find("</table>", start) - start);
    static const std::regex row_pattern("<tr([^>]*)>(.*?)</tr>"), cell_pattern("<td[^>]*>(.*?)</td>"), tag("<[^>]*>");
    for (std::sregex_iterator r(table.begin(), table.end(), row_pattern), end; r != end; ++r) {
        std::string inner = (*r)[2].str();
        if (inner.find("<td") == std::string::npos) continue;  // the header
        DomRow row;
        row.hidden = (*r)[1].str().find("display: none") != std::string::npos;
        for (std::sregex_iterator c(inner.begin(), inner.end(), cell_pattern); c != end; ++c)
            row.cells.push_back(std::regex_replace((*c)[1].str(), tag, ""));
        rows.push_back(row);
    }
    return rows;
}

// Issue 28: the evaluations table sorts by a column and filters its rows, in a real browser;
// the page's address names the view (#sort=time, #sort=-time, #filter=text).
TEST(HtmlBrowser, TheEvaluationsTableSortsAndFilters) {
    REQUIRE_CHROMIUM();
    fs::path specs = scratch_specs();
    CliResult tune = run_cli({"tune", "fault_injection.toml", "--cache", "faults.sqlite", "--json"}, specs);
    ASSERT_EQ(tune.exit_code, 0) << tune.err;
    fs::path page = report_html({(specs / "faults.sqlite").string()}, specs / "faults.html");
    auto times = [](const std::vector<DomRow>& rows) {
        std::vector<double> out;
        for (const auto& row : rows)
            if (row.cells.size() > 3 && row.cells[3] != "-") out.push_back(std::stod(row.cells[3]));
        return out;
    };
    std::vector<double> as_written = times(evaluation_rows(rendered_dom(page)));
    ASSERT_GE(as_written.size(), 3u);
    std::vector<double> ascending = times(evaluation_rows(rendered_dom(page, "sort=time")));
    std::vector<double> expected = as_written;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(ascending, expected);
    std::vector<double> descending = times(evaluation_rows(rendered_dom(page, "sort=-time")));
    std::reverse(expected.begin(), expected.end());
    EXPECT_EQ(descending, expected);
    std::vector<DomRow> filtered = evaluation_rows(rendered_dom(page, "filter=build_failed"));
    std::size_t shown = 0;
    for (const auto& row : filtered) {
        bool failed = row.cells.size() > 2 && row.cells[2] == "build_failed";
        EXPECT_EQ(row.hidden, !failed) << (row.cells.size() > 1 ? row.cells[1] : "");
        shown += !row.hidden;
    }
    EXPECT_GT(shown, 0u);
    EXPECT_LT(shown, filtered.size());
}

// Tunes the fake_timed spec in specs over every route of routes (full search, no jitter) into store.
void tune_fake_timed(const fs::path& specs, const std::string& store, const std::string& routes) {
    CliResult tune = run_cli({"tune", "fake_timed.toml", "--cache", store, "--search", "full", "--routes", routes, "--json"},
                             specs, {{"FAKE_JITTER", "0"}});
    ASSERT_EQ(tune.exit_code, 0) << tune.err;
}

// Issue 28: the best-so-far curve's build axis counts whole builds, also over a study of two.
TEST(HtmlBrowser, TheBuildAxisHasWholeNumbersOnly) {
    REQUIRE_CHROMIUM();
    fs::path specs = scratch_specs();
    ASSERT_NO_FATAL_FAILURE(tune_fake_timed(specs, "two.sqlite", "-O=[2|3]"));
    fs::path page = report_html({(specs / "two.sqlite").string()}, specs / "two.html");
    std::string ticks = canvas_attribute(rendered_dom(page), "chart-0-progress", "data-x-ticks");
    ASSERT_FALSE(ticks.empty()) << "no ticks recorded";
    std::istringstream values(ticks);
    std::size_t count = 0;
    for (double value; values >> value; ++count) EXPECT_EQ(value, std::floor(value)) << ticks;
    EXPECT_GE(count, 2u) << ticks;
}

// Issue 28: each route is shown as its difference from the default route, the whole route in the
// cell's title. A GCC-adapter study (the fake compiler's catalog) over -O=2 -funroll-loops=[on|off]
// -march=[x86-64|native] at -O2: in the page a browser drew, every route cell holds exactly the
// changes that `report --format json` names for that route (route_changes), and the route that
// assigns every knob its default is marked "= (default)".
TEST(HtmlBrowser, EachRouteIsShownAsItsDifferenceFromTheDefault) {
    REQUIRE_CHROMIUM();
    fs::path specs = scratch_specs();
    ASSERT_NO_FATAL_FAILURE(tune_fake_timed(specs, "changes.sqlite", "-O=2 -funroll-loops=[on|off] -march=[x86-64|native]"));
    CliResult json = run_cli({"report", "changes.sqlite", "--format", "json"}, specs);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    std::map<std::string, std::string> expected;  // whole route -> the changes the page should show
    nlohmann::json summary = nlohmann::json::parse(json.out);
    for (const auto& e : summary.at("evaluations")) {
        std::string shown;
        for (const auto& [knob, value] : e.at("route_changes").items())
            shown += (shown.empty() ? "" : " ") + knob + "=" + (value.is_null() ? "(unset)" : value.get<std::string>());
        std::string route = e.at("route");
        expected[route.empty() ? "(default)" : route] = route.empty() ? "(default)" : shown.empty() ? "= (default)" : shown;
    }
    ASSERT_EQ(expected.size(), 5u) << json.out;
    EXPECT_EQ(expected.at("-O=2 -funroll-loops=off -march=x86-64"), "= (default)") << "the knobs' defaults were recorded";
    EXPECT_EQ(expected.at("-O=2 -funroll-loops=off -march=native"), "-march=native");
    fs::path page = report_html({(specs / "changes.sqlite").string()}, specs / "changes.html");
    std::string dom = rendered_dom(page);
    auto start = dom.find("<table class=\"evaluations\">");
    ASSERT_NE(start, std::string::npos);
    std::string table = dom.substr(start, dom.find("</table>", start) - start);
    static const std::regex cell("<td class=\"route\"( title=\"([^\"]*)\")?[^>]*>(.*?)</td>"), tag("<[^>]*>");
    std::size_t cells = 0, titled = 0;
    for (std::sregex_iterator c(table.begin(), table.end(), cell), end; c != end; ++c, ++cells) {
        std::string shown = std::regex_replace((*c)[3].str(), tag, "");
        std::string whole = (*c)[1].matched ? (*c)[2].str() : shown;
        titled += (*c)[1].matched;
        ASSERT_TRUE(expected.count(whole)) << whole;
        EXPECT_EQ(shown, expected.at(whole)) << whole;
    }
    EXPECT_EQ(cells, expected.size());
    EXPECT_EQ(titled, 4u) << "each route that keeps a default has its whole text on hover";
    EXPECT_EQ(body_attribute(dom, "data-errors"), "") << page_errors(dom);
}

// The checks can fail: a page that fetches an image and throws is caught by both hooks.
TEST(HtmlBrowser, NetworkRequestsAndScriptErrorsAreReported) {
    REQUIRE_CHROMIUM();
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-html-");
    fs::path gpu = fs::path(ROUTETUNE_SOURCE_DIR) / "docs" / "gpu";
    fs::path page = report_html({(gpu / "cuda_gemm.sqlite").string()}, dir / "gemm.html");
    std::string html = read_file(page).value_or("");
    auto body_end = html.rfind("</body>");
    html.insert(body_end, "<img src=\"http://127.0.0.1:9/x.png\"><script>undefinedFunction();</script>\n");
    write_file(dir / "broken.html", html);
    std::string dom = rendered_dom(dir / "broken.html");
    EXPECT_EQ(body_attribute(dom, "data-errors"), "2") << page_errors(dom);
    EXPECT_NE(page_errors(dom).find("blocked by the page policy: http://127.0.0.1:9/x.png"), std::string::npos)
        << page_errors(dom);
    EXPECT_NE(page_errors(dom).find("undefinedFunction"), std::string::npos) << page_errors(dom);
}

}  // namespace
}  // namespace routetune::e2e
