// `routetune report CACHE`: renders a study's store as a table, JSON, Markdown or HTML, to
// stdout or a file. It reads only (a running study can be reported on).
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "study/study_runner.hpp"
#include "report/render.hpp"
#include "routetune/error.hpp"
#include "store/study_store.hpp"
#include "util/files.hpp"
#include "util/output_path.hpp"

namespace routetune::cli {

namespace {

struct ReportArguments {
    std::string cache;
    std::string format = "table";
    std::string output;
};

// A report routetune wrote, in any format, holds one of these near its start.
bool is_report(const std::filesystem::path& file) {
    for (const char* marker : {"routetune study: ", "\"evaluations\"", "study "}) {
        if (file_starts_with_marker(file, marker)) return true;
    }
    return false;
}

int run(const ReportArguments& a) {
    if (!a.output.empty()) check_output_path(a.output, "--output", is_report);
    StudySummary summary = load_study_summary(a.cache);
    std::string metric;
    std::string text = render_summary(summary, a.format, metric);
    if (a.output.empty()) {
        std::cout << text;
        return 0;
    }
    std::string error;
    if (!write_file(a.output, text, &error)) throw RuntimeFailure("cannot write " + a.output + ": " + error);
    std::cerr << "routetune: wrote " << a.output << "\n";
    return 0;
}

}  // namespace

void add_report_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<ReportArguments>();
    CLI::App* c = app.add_subcommand("report", "Show a study from its cache file");
    c->add_option("cache", a->cache, "the study's .sqlite file")->required();
    c->add_option("--format", a->format, "table | json | markdown | html");
    c->add_option("--output", a->output, "write the report to this file instead of stdout");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
