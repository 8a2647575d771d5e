// `routetune inspect ARTIFACT [--json]`: shows the manifest written beside an artifact by
// `--output`, and refuses it (exit 1) when the artifact's SHA-256 no longer matches.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "study/artifact_manifest.hpp"
#include "report/inspect_report.hpp"

namespace routetune::cli {

namespace {

struct InspectOptions {
    std::string artifact;
    bool json = false;
};

int run_inspect(const InspectOptions& options) {
    InspectResult result = inspect_artifact(options.artifact);
    if (options.json) {
        std::cout << inspect_json(result).dump(2) << "\n";
    } else {
        std::cout << inspect_text(result);
    }
    if (!result.sha_matches) {
        std::cerr << "routetune: error: " << options.artifact
                  << " does not match its manifest: sha256 is " << result.actual_sha256
                  << ", the manifest says " << result.manifest.sha256
                  << "; the artifact was changed after it was written\n";
        return 1;
    }
    return 0;
}

}  // namespace

void add_inspect_command(CLI::App& app, Action& action) {
    auto options = std::make_shared<InspectOptions>();
    CLI::App* command = app.add_subcommand(
        "inspect", "Show an artifact's manifest (route, fingerprint, study, speedup) and check its sha256");
    command->add_option("ARTIFACT", options->artifact, "an artifact written by `tune --output`")->required();
    command->add_flag("--json", options->json, "print the manifest and the check as JSON");
    command->footer("Exit codes: 0 the manifest matches the artifact; 1 the artifact changed since its manifest was written (sha256 mismatch) or cannot be read; 2 no manifest beside the artifact, or bad options.");
    command->callback([options, &action] { action = [options] { return run_inspect(*options); }; });
}

}  // namespace routetune::cli
