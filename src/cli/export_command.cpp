// `routetune export-trtexec STUDY.sqlite --output FILE.jsonl`: writes a study store as a
// tuning cache in the format of TensorRT's Global Performance Tuner (`--tuningCacheFile`).
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "routetune/error.hpp"
#include "gpt/trtexec_study.hpp"
#include "util/files.hpp"
#include "util/output_path.hpp"

namespace routetune::cli {

namespace {

struct ExportArguments {
    std::string cache;
    std::string output;
};

int run(const ExportArguments& a) {
    check_output_path(a.output, "--output");
    std::string text = export_trtexec_cache(a.cache);
    std::string error;
    if (!write_file(a.output, text, &error)) throw RuntimeFailure("cannot write " + a.output + ": " + error);
    std::cerr << "routetune: wrote " << a.output << "\n";
    return 0;
}

}  // namespace

void add_export_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<ExportArguments>();
    CLI::App* c = app.add_subcommand("export-trtexec", "Write a study store as a trtexec (GPT) tuning cache");
    c->add_option("cache", a->cache, "the study's .sqlite file")->required();
    c->add_option("--output", a->output, "the JSON-lines tuning cache to write")->required();
    c->footer("Exit codes: 0 written; 1 the file could not be written; 2 bad options or no store at the path.");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
