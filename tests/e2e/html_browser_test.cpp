// The HTML report in a real browser: headless Chromium loads the page from a file, runs its
// scripts under a virtual-time budget and dumps the DOM. The page's own script marks each
// canvas data-drawn="true" once it holds pixels and sets counts on <body>; its error hook
// lists every error, console.error and Content-Security-Policy violation (any attempted
// network request is one: the policy allows none) in #page-errors. Skipped without chromium.
#include <gtest/gtest.h>

#include <regex>

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

// The DOM of page after its scripts ran.
std::string rendered_dom(const fs::path& page) {
    ProcessSpec spec;
    spec.argv = {chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--user-data-dir=" + (page.parent_path() / "chromium-profile").string(),
                 "--virtual-time-budget=15000", "--window-size=1280,2000", "--dump-dom",
                 "file://" + fs::absolute(page).string()};
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

TEST(HtmlBrowser, CpuStudyWithEveryFailureDrawsEveryChart) {
    REQUIRE_CHROMIUM();
    fs::path specs = scratch_specs();
    CliResult tune = run_cli({"tune", "fault_injection.toml", "--cache", "faults.sqlite", "--json"}, specs);
    ASSERT_EQ(tune.exit_code, 0) << tune.err;
    fs::path page = report_html({(specs / "faults.sqlite").string()}, specs / "faults.html");
    std::string html = read_file(page).value_or("");
    // Process timing on a loaded machine may leave no candidate to confirm, so the
    // confirmation chart is checked by the GPU test, whose stores hold confirmations.
    for (const char* kind : {"progress", "routes", "samples", "failures", "effects"})
        EXPECT_NE(html.find(std::string("data-chart=\"") + kind + "\""), std::string::npos) << kind;
    expect_every_chart_drawn(page, 5);
}

TEST(HtmlBrowser, GpuStudiesComparedOnOnePage) {
    REQUIRE_CHROMIUM();
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-html-");
    fs::path gpu = fs::path(ROUTETUNE_SOURCE_DIR) / "docs" / "gpu";
    fs::path page = report_html({(gpu / "cuda_gemm.sqlite").string(), (gpu / "inductor_mlp.sqlite").string()},
                                dir / "compare.html");
    std::string html = read_file(page).value_or("");
    EXPECT_EQ(count(html, "data-chart=\"compare-progress\""), 1u);
    EXPECT_EQ(count(html, "<section class=\"study\""), 2u);
    EXPECT_EQ(count(html, "data-chart=\"confirmation\""), 2u);
    expect_every_chart_drawn(page, 13);
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
