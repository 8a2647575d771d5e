// `routetune build SPEC --route R`: builds one route exactly as a study would (same adapter,
// flags, placeholders, limits), without running it; --output copies the artifact out with a
// manifest.
#include <cmath>
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "study/artifact_manifest.hpp"
#include "eval/evaluator.hpp"
#include "study/study_opening.hpp"
#include "study/study_setup.hpp"
#include "routetune/error.hpp"
#include "util/files.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune::cli {

namespace {

struct BuildArguments {
    std::string spec;
    std::string route;
    std::string output;
    std::string cache;
};

int run(const BuildArguments& a) {
    InterruptGuard guard;
    if (!a.output.empty()) check_artifact_output(a.output);
    Spec spec = load_spec(a.spec);
    StudySetup setup;
    setup.adapter = make_adapter(spec.compiler.adapter, adapter_options_for(spec));
    setup.catalog = setup.adapter->discover();
    setup.spec = std::move(spec);
    Route route = Route::parse(a.route);
    validate_route(route, setup.catalog);
    StudyPaths paths = make_study_paths(setup.spec.dir, setup.spec.name + "-builds", a.cache);
    Evaluator evaluator(setup.spec, *setup.adapter, setup.catalog, paths);
    BuiltCandidate built = evaluator.build(route, "build");
    throw_if_interrupted("the build was stopped; nothing was copied out");
    const Evaluation& e = built.evaluation;
    if (e.status != Status::Pending) {
        std::cerr << e.build_log_tail;
        std::cerr << "routetune: " << to_string(e.status) << ": " << e.message << "\n";
        return 1;
    }
    std::cout << "built " << (route.empty() ? "(default)" : route.to_string()) << " in " << e.build_s << " s: "
              << built.artifact.string() << " (" << e.artifact_bytes << " bytes, sha256 " << e.artifact_sha256 << ")\n";
    if (!a.output.empty()) {
        ManifestInfo info;
        info.route = route;
        info.study = setup.spec.name;
        info.fingerprint = study_fingerprint(setup);
        info.spec_path = setup.spec.file.string();
        info.speedup = info.ci_low = info.ci_high = std::nan("");
        info.outcome_text = "built";
        write_output(built.artifact, a.output, info);
        std::cout << "wrote " << a.output << " and " << manifest_path(a.output).string() << "\n";
    }
    return 0;
}

}  // namespace

void add_build_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<BuildArguments>();
    CLI::App* c = app.add_subcommand("build", "Build one route of a spec (no runs), optionally copying the artifact out");
    c->add_option("spec", a->spec, "study spec (TOML)")->required();
    c->add_option("--route", a->route, "the route, e.g. '-O=3 -funroll-loops=on' ('' is the default route)")->required();
    c->add_option("--output", a->output, "copy the artifact here, with PATH.routetune.json");
    c->add_option("--cache", a->cache, "where the build's scratch folder lives (default beside the spec)");
    c->footer("Exit codes: 0 built; 1 the build failed (its error line is printed); 2 bad spec, route or options; "
              "130 stopped by SIGINT or SIGTERM (the build is ended, nothing copied out).");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
