#include "report/table_report.hpp"

#include <gtest/gtest.h>

#include "report/figure_format.hpp"
#include "report/markdown_report.hpp"
#include "report/noise_caution.hpp"
#include "report/render.hpp"
#include "report/report_row.hpp"
#include "routetune/error.hpp"
#include "unit/sample_summary.hpp"

namespace routetune {
namespace {

// The warm processes' evidence (docs/measurement-protocol.md) is in every human report's header:
// what a request cost, how far the default moved, the code each build ran and how.
TEST(TableReport, TheHeaderSaysWhatTheWarmProcessesShowed) {
    StudySummary summary = testing::sample_summary();
    summary.warm_processes = {WarmProcessReport{"", 4242, 84, 12, 0.001771, 0.001369, "closed", 0.311, 8.82}};
    summary.code_identities = {CodeIdentity{Route::parse(""), "a", "c", {"dynamo, recording", "captured, kept"}},
                               CodeIdentity{Route::parse("-O=3"), "b", "d", {"captured", "captured, kept"}}};
    std::string text = table_report(summary, TableOptions{});
    EXPECT_NE(text.find("\nwarm measurement  1 process, 84 runs; a request 0.311 s median, 8.82 s at most; the default "
                        "1.771 ms first, 1.369 ms last (22.7% apart); 2 builds, each one code hash (ran: captured 1; "
                        "captured, kept 2; dynamo, recording 1)\n"),
              std::string::npos)
        << text;
    summary.code_identities[1].why = {"ran code 2f549bbc13e63bbd, but its build produced 30acdf87b3dc5b6a"};
    text = table_report(summary, TableOptions{});
    EXPECT_NE(text.find("dynamo, recording 1); 1 said why it ran so (-O=3: ran code 2f549bbc13e63bbd, but its build "
                        "produced 30acdf87b3dc5b6a)\n"),
              std::string::npos)
        << text;
    summary.code_identities[0].why = {std::string(300, 'x')};
    text = table_report(summary, TableOptions{});
    EXPECT_NE(text.find("2 said why they ran so (the default: " + std::string(146, 'x') + "…; the others in the JSON)"),
              std::string::npos)
        << text;
    summary.warm_processes.push_back(
        WarmProcessReport{"1", 4343, 3, 1, 0.0012, std::nullopt, "died while running case 'a'", 0.29, 0.5});
    text = markdown_report(summary, "");
    EXPECT_NE(text.find("| warm measurement | 2 processes, 87 runs, 1 replaced (died while running case 'a'); a request "
                        "0.29-0.311 s median, 8.82 s at most; the default 1.771 ms first, 1.369 ms last (22.7% apart, "
                        "the widest of its processes);"),
              std::string::npos)
        << text;
    EXPECT_EQ(table_report(testing::sample_summary(), TableOptions{}).find("warm measurement"), std::string::npos)
        << "a study without warm processes says nothing of them";
}

TEST(TableReport, ExactTextForTheSampleStudy) {
    TableOptions options;
    options.metric = "rel_l2";
    const std::string expected =
        "study       matmul\n"
        "spec        /specs/matmul.toml\n"
        "search      fast\n"
        "expression  -O=[2|3] -funroll-loops=[on|off]\n"
        "default     20.000 ms, 95% CI [19.000, 21.000] ms\n"
        "speedups    unpaired: each route timed alone against the default's first timing; uncalibrated (drift in "
        "the machine's load can look like a gain)\n"
        "routes      shown whole: the study recorded no knob's default at the base flags\n"
        "outcome     improved\n"
        "winner      -O=3 (1.25×, 95% CI [1.20×, 1.30×])\n"
        "artifact    .routetune/artifacts/ab.bin\n"
        "candidates  5 evaluated, 1 started and never finished, of 8 planned\n"
        "wall time   12.5 s\n"
        "\n"
        "#  route              status        time (ms)          vs default           confirmed  loss (rel_l2)  message\n"
        "1  -O=3               ok               16.000  1.25× [1.21, 1.29]  1.25× [1.20, 1.30]          1e-09\n"
        "2  (default)          ok               20.000  1.00× [0.95, 1.05]                   -              0\n"
        "3  -funroll-loops=on  ok               25.000  0.80× [0.77, 0.83]         unconfirmed              0\n"
        "4  -ffast-math=on     inaccurate            -                   -                   -            nan  case edge: loss nan over threshold 1e-06\n"
        "5  -march=native      build_failed          -                   -                   -              -  gcc: error: bad value for -march\n"
        "6  -O=2               pending               -                   -                   -              -\n"
        "\n"
        "counts     ok 3, inaccurate 1, build_failed 1, pending 1, total 6\n"
        "artifacts  4.0 KiB kept\n";
    EXPECT_EQ(table_report(testing::sample_summary(), options), expected);
    EXPECT_EQ(render_summary(testing::sample_summary(), "table", "rel_l2"), expected);
}

TEST(TableReport, LongRoutesAreCutWithAnEllipsis) {
    StudySummary s;
    s.study = "long";
    s.search = "full";
    s.outcome = Outcome::DefaultStays;
    Evaluation e = testing::evaluation("-O=3 -funroll-loops=on -march=native", "full", Status::RunTimeout);
    e.message = "case typical: ran past 10 s";
    s.evaluations = {e};
    TableOptions options;
    options.route_width = 12;
    const std::string expected =
        "study       long\n"
        "search      full\n"
        "default     not evaluated\n"
        "routes      shown whole: the study recorded no knob's default at the base flags\n"
        "outcome     default-stays\n"
        "winner      none\n"
        "candidates  1 evaluated\n"
        "wall time   0.0 s\n"
        "\n"
        "#  route         status       time (ms)  vs default  confirmed  loss  message\n"
        "1  -O=3 -funro…  run_timeout          -           -          -     -  case typical: ran past 10 s\n"
        "\n"
        "counts     run_timeout 1, total 1\n"
        "artifacts  0 B kept\n";
    EXPECT_EQ(table_report(s, options), expected);
}

TEST(TableReport, EmptyStudySaysSo) {
    StudySummary s;
    s.study = "none";
    s.search = "fast";
    std::string text = table_report(s);
    EXPECT_NE(text.find("\nno evaluations\n"), std::string::npos) << text;
    EXPECT_NE(text.find("counts     total 0\n"), std::string::npos) << text;
}

TEST(TableReport, DisplayWidthCountsCodePoints) {
    EXPECT_EQ(display_width("abc"), 3u);
    EXPECT_EQ(display_width("1.25×"), 5u);
    EXPECT_EQ(display_width("…"), 1u);
    EXPECT_EQ(truncate_display("abcdef", 6), "abcdef");
    EXPECT_EQ(truncate_display("abcdef", 4), "abc…");
    EXPECT_EQ(truncate_display("a×c×ef", 4), "a×c…");
    EXPECT_EQ(truncate_display("abc", 0), "");
}

TEST(ReportRows, ImportedRoutesAreShownAsTheirDifferenceFromTheDefault) {
    StudySummary s = testing::sample_summary();
    for (auto& e : s.evaluations) e.route.set("-tactic", "7");
    s.default_evaluation->route.set("-tactic", "7");
    auto rows = report_rows(s);
    EXPECT_EQ(rows[0].route, "-O=3");
    EXPECT_EQ(rows[1].route, "(default)");
    bool said = false;
    for (const auto& field : report_header(s)) said |= field.label == "routes" && field.value.find("-tactic=7") != std::string::npos;
    EXPECT_TRUE(said);
}

TEST(ReportRows, OkSortedByTimeThenFailuresByStatus) {
    auto rows = report_rows(testing::sample_summary());
    ASSERT_EQ(rows.size(), 6u);
    EXPECT_EQ(rows[0].route, "-O=3");
    EXPECT_EQ(rows[1].route, "(default)");
    EXPECT_EQ(rows[2].route, "-funroll-loops=on");
    EXPECT_EQ(rows[3].status, Status::Inaccurate);
    EXPECT_EQ(rows[4].status, Status::BuildFailed);
    EXPECT_EQ(rows[5].status, Status::Pending);
    EXPECT_DOUBLE_EQ(*rows[0].vs_default, 1.25);
    EXPECT_EQ(rows[5].rank, 6u);
}

// A summary where a route faster in the search was not confirmed, one that was confirmed, and
// two answered by byte-identical twins (of the default, of the confirmed route).
StudySummary twins_summary() {
    StudySummary s = testing::sample_with_default_twin();
    Evaluation lucky = testing::evaluation("-O=1", "fast", Status::Ok);
    lucky.timing = testing::timing(0.01, 0.0095, 0.0105);  // 2× in the search, never confirmed
    Evaluation same_winner = s.evaluations[2];  // -O=3's figures
    same_winner.route = Route::parse("-O=3 -fgcse-sm=on");
    same_winner.same_as = "-O=3";
    s.evaluations.push_back(lucky);
    s.evaluations.push_back(same_winner);
    return s;
}

TEST(ReportRows, ConfirmedRoutesComeFirstAndTwinsShowWhatTheyEqual) {
    auto rows = report_rows(twins_summary());
    ASSERT_GE(rows.size(), 6u);
    EXPECT_EQ(rows[0].route, "-O=3") << "the confirmed route leads, though -O=1 was faster in the search";
    ASSERT_TRUE(rows[0].confirmation.has_value());
    EXPECT_EQ(format_confirmed(rows[0]), "1.25× [1.20, 1.30]");
    EXPECT_EQ(rows[1].route, "-O=1");
    EXPECT_EQ(format_vs_default(rows[1]), "2.00× [1.90, 2.11]");
    EXPECT_EQ(format_confirmed(rows[1]), "unconfirmed");
    for (const auto& row : rows) {
        if (row.route == "-fgcse-sm=on") {
            EXPECT_EQ(format_vs_default(row), "= (default)");
            EXPECT_EQ(format_confirmed(row), "-") << "not a figure of its own";
        }
        if (row.route == "-O=3 -fgcse-sm=on") {
            EXPECT_EQ(format_vs_default(row), "= -O=3");
            EXPECT_FALSE(row.confirmation.has_value()) << "its twin was confirmed, not it";
        }
        if (row.route == "(default)") EXPECT_EQ(format_confirmed(row), "-");
    }
}

TEST(ReportRows, TablesAndMarkdownSayEqualsInsteadOfASpeedup) {
    std::string table = table_report(twins_summary());
    EXPECT_NE(table.find("5  -fgcse-sm=on       ok               20.000         = (default)                   -      0\n"),
              std::string::npos)
        << table;
    std::string markdown = markdown_report(twins_summary(), "");
    EXPECT_NE(markdown.find("| -fgcse-sm=on | ok | 20.000 | = (default) | - |"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("| -O=3 -fgcse-sm=on | ok | 16.000 | = -O=3 | - |"), std::string::npos) << markdown;
}

TEST(ReportRows, OneSpeedupPerEvaluationAgainstTheDefault) {
    StudySummary s = testing::sample_summary();
    auto fast = speedup_vs_default(s.evaluations[2], s);
    ASSERT_TRUE(fast.has_value());
    EXPECT_DOUBLE_EQ(fast->value, 0.02 / 0.016);
    ASSERT_TRUE(fast->ci95.has_value());
    EXPECT_DOUBLE_EQ(fast->ci95->first, 0.02 / 0.0165);
    EXPECT_DOUBLE_EQ(fast->ci95->second, 0.02 / 0.0155);
    EXPECT_FALSE(speedup_vs_default(s.evaluations[3], s).has_value()) << "inaccurate: no timing";
    s.default_evaluation->timing = TimingSummary{};
    EXPECT_FALSE(speedup_vs_default(s.evaluations[2], s).has_value()) << "an untimed default";
}

TEST(ReportRows, TheOutcomeLineSpeaksOnlyOfConfirmedFigures) {
    StudySummary s = testing::sample_summary();
    EXPECT_EQ(outcome_text(s), "improved: -O=3 is 1.25× as fast as the default, 95% CI [1.20×, 1.30×], confirmed "
                               "interleaved with the default");
    s.winner.reset();
    s.outcome = Outcome::DefaultStays;
    s.message = "no route's median was 1.02x the default's or better";
    EXPECT_EQ(outcome_text(s), "default-stays: no route was confirmed faster than the default (no route's median was "
                               "1.02x the default's or better); every speedup marked unconfirmed is a search-phase figure");
    s.outcome = Outcome::Unfinished;
    EXPECT_NE(outcome_text(s).find("unconfirmed"), std::string::npos);
}

// The sample study with paired rounds: -funroll-loops=on's own median (25 ms) says 0.80x, its
// pairs say 1.10x; -O=3's median says 1.25x, its pairs 1.05x. Rows follow the paired figures.
StudySummary paired_sample() {
    StudySummary s = testing::sample_summary();
    auto pairs = [](double ratio) { return PairedTiming{{ratio, ratio, ratio, ratio, ratio}, {1, 1, 1, 1, 1}}; };
    for (auto& e : s.evaluations) {
        if (e.route.empty()) e.paired = {{1, 1, 1, 1, 1}, {1, 1.02, 0.98, 1, 1}};
        if (e.route.to_string() == "-O=3") e.paired = pairs(1.05);
        if (e.route.to_string() == "-funroll-loops=on") e.paired = pairs(1.1);
    }
    s.default_evaluation = s.evaluations[0];
    return s;
}

// The confirmed -O=3 leads; after it the paired figures order the rest: -funroll-loops=on
// (1.10x paired, though its median is slower than the default's) before the default.
TEST(ReportRows, PairedSpeedupsOrderTheRowsAndFillVsDefault) {
    auto rows = report_rows(paired_sample());
    EXPECT_EQ(rows[0].route, "-O=3") << "confirmed first";
    EXPECT_DOUBLE_EQ(*rows[0].vs_default, 1.05);
    EXPECT_EQ(rows[1].route, "-funroll-loops=on");
    EXPECT_DOUBLE_EQ(*rows[1].vs_default, 1.1);
    EXPECT_TRUE(rows[1].paired);
    EXPECT_EQ(rows[2].route, "(default)");
    EXPECT_DOUBLE_EQ(*rows[2].vs_default, 1.0);
    EXPECT_NEAR(rows[2].vs_default_ci->first, 1 / 1.02, 1e-12) << "the default's A/A interval";
    EXPECT_NEAR(rows[2].vs_default_ci->second, 1 / 0.98, 1e-12);
    std::string text = table_report(paired_sample(), TableOptions{});
    EXPECT_NE(text.find("speedups    paired with the default's runs, round by round (calibrated under drifting load); "
                        "the default against itself (A/A): [0.98, 1.02]\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("2  -funroll-loops=on  ok               25.000  1.10× [1.10, 1.10]"), std::string::npos) << text;
}

TEST(NoiseCaution, SaysTheMeasuredSpreadOnceAndNeverSuggestsTheSourceInUse) {
    StudySummary s = paired_sample();
    TimingSpec timing;
    timing.min_gain = 0.02;
    auto caution = noise_caution(*s.default_evaluation, timing);
    ASSERT_TRUE(caution.has_value()) << "A/A [0.980, 1.020] is 4.0% wide, wider than 2%";
    EXPECT_NE(caution->find("paired A/A interval (its runs paired with more of its own) is [0.980, 1.020], 4.0% wide, "
                            "wider than min_gain 2.0%"),
              std::string::npos)
        << *caution;
    EXPECT_NE(caution->find("[timing] source = \"reported\""), std::string::npos) << "process timing may switch";
    timing.source = "reported";
    EXPECT_EQ(noise_caution(*s.default_evaluation, timing)->find("reported"), std::string::npos)
        << "never suggest reported timing to a spec that uses it";
    timing.min_gain = 0.05;
    EXPECT_FALSE(noise_caution(*s.default_evaluation, timing).has_value()) << "4% is within 5%";
}

TEST(MarkdownReport, EscapesAndTabulates) {
    EXPECT_EQ(escape_markdown("a|b *c* <x> [l](u)\nz"), "a\\|b \\*c\\* \\<x\\> \\[l\\](u) z");
    std::string text = markdown_report(testing::sample_summary(), "rel_l2");
    EXPECT_EQ(text.substr(0, 29), "# routetune study: matmul\n\n| ");
    EXPECT_NE(text.find("| 1 | -O=3 | ok | 16.000 | 1.25× [1.21, 1.29] | 1.25× [1.20, 1.30] | 1e-09 |  |\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("| 3 | -funroll-loops=on | ok | 25.000 | 0.80× [0.77, 0.83] | unconfirmed | 0 |  |\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("| 5 | -march=native | build\\_failed | - | - | - | - | gcc: error: bad value for -march |\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("| expression | -O=\\[2\\|3\\] -funroll-loops=\\[on\\|off\\] |\n"), std::string::npos) << text;
    EXPECT_NE(text.find("| run\\_crashed | 0 |\n| run\\_timeout | 0 |\n| abandoned | 0 |\n| pending | 1 |\n| total | 6 |\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Artifacts kept: 4.0 KiB.\n"), std::string::npos);
}

TEST(TableReport, KeptBytesSplitIntoBinariesAndOutputsWhenKnown) {
    StudySummary summary = testing::sample_summary();
    summary.artifact_bytes = 3 << 20;
    summary.binary_bytes = (2 << 20) + (512 << 10);
    summary.output_bytes = 512 << 10;
    EXPECT_NE(table_report(summary, TableOptions{}).find("artifacts  3.0 MiB kept (binaries 2.5 MiB, outputs 512.0 KiB)\n"),
              std::string::npos);
    EXPECT_NE(markdown_report(summary, "").find("Artifacts kept: 3.0 MiB (binaries 2.5 MiB, outputs 512.0 KiB).\n"),
              std::string::npos);
    summary.output_bytes = 0;  // a split that does not add up (an older store) is not shown
    EXPECT_NE(table_report(summary, TableOptions{}).find("artifacts  3.0 MiB kept\n"), std::string::npos);
}

TEST(TableReport, SaysWhatTildeLeftOutForTheStudysCpu) {
    StudySummary summary = testing::sample_summary();
    EXPECT_EQ(table_report(summary, TableOptions{}).find("left out"), std::string::npos);
    summary.left_out = {{"-march", "haswell", "enables avx2, which this CPU lacks"},
                        {"-march", "skylake", "enables avx2, which this CPU lacks"}};
    std::string text = table_report(summary, TableOptions{});
    EXPECT_NE(text.find("left out    `~` left out 2 values that this machine's CPU cannot run: -march=[haswell|skylake] (2 values)"),
              std::string::npos)
        << text;
    EXPECT_NE(markdown_report(summary, "").find("| left out | "), std::string::npos);
}

TEST(TableReport, VsDefaultWithoutAnIntervalIsTheFactorAlone) {
    StudySummary summary = testing::sample_summary();
    for (auto& e : summary.evaluations) e.timing.ci_low_s = e.timing.ci_high_s = 0;
    summary.confirmations.clear();  // the confirmed column would show the confirmation's interval
    std::string text = table_report(summary, TableOptions{});
    EXPECT_NE(text.find("  1.25×  "), std::string::npos) << text;
    EXPECT_EQ(text.find("1.25× ["), std::string::npos) << text;
}

TEST(Render, UnknownFormatListsTheValidOnes) {
    try {
        render_summary(testing::sample_summary(), "csv");
        FAIL() << "expected UsageError";
    } catch (const UsageError& e) {
        EXPECT_STREQ(e.what(), "--format: unknown report format \"csv\" (valid: table, json, markdown, html)");
    }
    EXPECT_EQ(render_summary(testing::sample_summary(), "json").substr(0, 1), "{");
    EXPECT_EQ(render_summary(testing::sample_summary(), "html").substr(0, 15), "<!DOCTYPE html>");
    EXPECT_EQ(render_summary(testing::sample_summary(), "markdown").substr(0, 1), "#");
}

}  // namespace
}  // namespace routetune

namespace routetune {
namespace {

// A message and a study name carrying raw control characters and a right-to-left override
// (U+202E), as a hostile program's stderr or a crafted store could.
StudySummary hostile_summary() {
    StudySummary s;
    static const char study[] = "st\x1b[2Jud\0y\u202e";
    s.study = std::string(study, sizeof study - 1);
    s.search = "full";
    s.outcome = Outcome::DefaultStays;
    Evaluation e = testing::evaluation("-O=3", "full", Status::RunFailed);
    static const char message[] = "bad\0news \x07 \u202egnp.exe\u2066";
    e.message = std::string(message, sizeof message - 1);
    s.evaluations = {e};
    return s;
}

TEST(TableReport, ControlCharactersAndBidiOverridesAreEscaped) {
    std::string out = table_report(hostile_summary(), TableOptions{});
    for (char c : out) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << "raw control byte " << int(c);
    EXPECT_EQ(out.find("\u202e"), std::string::npos);
    EXPECT_EQ(out.find("\u2066"), std::string::npos);
    EXPECT_NE(out.find("bad\\x00news \\x07 \\u{202E}gnp.exe\\u{2066}"), std::string::npos) << out;
    EXPECT_NE(out.find("st\\x1b[2Jud\\x00y\\u{202E}"), std::string::npos) << out;
}

TEST(MarkdownReport, ControlCharactersAndBidiOverridesAreEscaped) {
    std::string out = markdown_report(hostile_summary(), "rel_l2");
    for (char c : out) EXPECT_TRUE(c == '\n' || static_cast<unsigned char>(c) >= 0x20) << "raw control byte " << int(c);
    EXPECT_EQ(out.find("\u202e"), std::string::npos);
    EXPECT_NE(out.find("\\u{202E}gnp.exe"), std::string::npos) << out;
}

}  // namespace
}  // namespace routetune
