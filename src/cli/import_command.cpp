// `routetune import-trtexec CACHE.jsonl --cache OUT.sqlite [--threshold X]`: turns a tuning
// cache of TensorRT's Global Performance Tuner into a study store that `report` reads.
#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.hpp"
#include "gpt/trtexec_study.hpp"

namespace routetune::cli {

namespace {

struct ImportArguments {
    std::string tuning_cache;
    std::string cache;
    std::optional<double> threshold;
};

int run(const ImportArguments& a) {
    TrtexecImportOptions options;
    options.threshold = a.threshold;
    TrtexecImportResult result = import_trtexec_cache(a.tuning_cache, a.cache, options);
    std::cerr << "routetune: imported " << result.iterations << " iterations of " << a.tuning_cache << " into "
              << a.cache << " (outcome: " << to_string(result.outcome) << ")\n";
    return 0;
}

}  // namespace

void add_import_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<ImportArguments>();
    CLI::App* c = app.add_subcommand("import-trtexec", "Import a trtexec --tuningCacheFile (GPT) as a study store");
    c->add_option("tuning_cache", a->tuning_cache, "the JSON-lines tuning cache trtexec wrote")->required();
    c->add_option("--cache", a->cache, "the study store to create (.sqlite)")->required();
    c->add_option("--threshold", a->threshold, "accuracy threshold replacing the cache's epsilon");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
