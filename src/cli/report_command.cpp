// `routetune report STORE...`: renders a study's store as a table, JSON, Markdown or HTML, to
// stdout or a file; several stores make one HTML page comparing them. It reads only (a
// running study can be reported on).
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "report/html_report.hpp"
#include "report/render.hpp"
#include "routetune/error.hpp"
#include "study/study_notes.hpp"
#include "study/study_runner.hpp"
#include "util/files.hpp"
#include "util/output_path.hpp"

namespace routetune::cli {

namespace {

struct ReportArguments {
    std::vector<std::string> stores;
    std::string format = "table";
    std::string output;
    bool wide = false;
    StoreArguments store;
};

// A report routetune wrote, in any format, holds one of these near its start.
bool is_report(const std::filesystem::path& file) {
    for (const char* marker : {"routetune study: ", "routetune studies: ", "\"evaluations\"", "study "}) {
        if (file_starts_with_marker(file, marker)) return true;
    }
    return false;
}

std::string render(ReportArguments a) {
    if (!a.store.store.empty()) a.stores.push_back(a.store.store);
    if (a.stores.empty()) throw UsageError("report: name a study store: STORE (a file) or --store URL|PATH");
    if (a.stores.size() > 1) {
        if (a.format != "html")
            throw UsageError("--format " + a.format + " takes one store; several stores are compared with --format html");
        std::vector<HtmlStudy> studies;
        for (const auto& store : a.stores) studies.push_back({load_study_summary(store), load_study_metric(store)});
        return html_report(studies);
    }
    return render_stored_study(StoreLocation(a.stores.at(0), a.store.study), a.format, a.wide);
}

int run(const ReportArguments& a) {
    if (!a.output.empty()) check_output_path(a.output, "--output", is_report);
    std::string text = render(a);
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
    CLI::App* c = app.add_subcommand("report", "Show a study from its store; several stores: one HTML page comparing them");
    c->add_option("store", a->stores, "the study's .sqlite file (several with --format html), or --store");
    add_store_options(*c, a->store);
    c->add_option("--format", a->format, "table | json | markdown | html");
    c->add_option("--output", a->output, "write the report to this file instead of stdout");
    c->add_flag("--wide", a->wide, "table: show each route's changes from the default uncut instead of cutting them at 60 columns");
    c->footer("Exit codes: 0 the report was written; 1 a store could not be read or the output written; "
              "2 bad options or no store at the path.");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
