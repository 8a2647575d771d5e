// `routetune inspect ARTIFACT [--store S] [--audit LOG] [--strict] [--json]`: shows the manifest
// written beside an artifact by `--output`, then checks the artifact against its manifest, the
// study store and the audit log (govern/artifact_evidence.hpp), printing each check as passed,
// MISMATCH or unverified (with why it could not be made). Any mismatch exits 1; with --strict a
// study check that could not be made exits 1 too.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "govern/artifact_evidence.hpp"
#include "report/inspect_report.hpp"
#include "study/artifact_manifest.hpp"
#include "util/output_schema.hpp"

namespace routetune::cli {

namespace {

struct InspectOptions {
    std::string artifact;
    EvidenceSources sources;
    bool strict = false;
    bool json = false;
};

std::string check_text(const EvidenceCheck& check) {
    if (check.verdict == EvidenceVerdict::Unverified) return "unverified against " + check.against + ": " + check.detail;
    return std::string(to_string(check.verdict)) + " against " + check.against + ": " + check.detail;
}

nlohmann::ordered_json checks_json(const std::vector<EvidenceCheck>& checks) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& check : checks)
        list.push_back({{"against", check.against}, {"result", to_string(check.verdict)}, {"detail", check.detail}});
    return list;
}

bool study_verified(const std::vector<EvidenceCheck>& checks) {
    for (const auto& check : checks)
        if (check.against == "the study") return check.verdict == EvidenceVerdict::Passed;
    return false;
}

int run_inspect(const InspectOptions& options) {
    InspectResult result = inspect_artifact(options.artifact);
    std::vector<EvidenceCheck> checks = check_artifact_evidence(result, options.sources);
    if (options.json) {
        nlohmann::ordered_json json = inspect_json(result);
        json["checks"] = checks_json(checks);
        std::cout << versioned_json_text(json);
    } else {
        std::cout << inspect_text(result) << "checks\n";
        for (const auto& check : checks) std::cout << "  " << check_text(check) << "\n";
    }
    if (any_mismatch(checks)) {
        for (const auto& check : checks)
            if (check.verdict == EvidenceVerdict::Mismatch)
                std::cerr << "routetune: error: " << options.artifact << ": " << check_text(check) << "\n";
        std::cerr << "routetune: error: " << options.artifact << " is not the artifact its study chose, or was changed after it was written\n";
        return 1;
    }
    if (options.strict && !study_verified(checks)) {
        std::cerr << "routetune: error: " << options.artifact
                  << ": --strict: the artifact could not be verified against its study\n";
        return 1;
    }
    return 0;
}

}  // namespace

void add_inspect_command(CLI::App& app, Action& action) {
    auto options = std::make_shared<InspectOptions>();
    CLI::App* command = app.add_subcommand(
        "inspect", "Show an artifact's manifest (route, fingerprint, study, speedup) and check the artifact against it, "
                   "its study store and the audit log");
    command->add_option("ARTIFACT", options->artifact, "an artifact written by `tune --output`")->required();
    command->add_option("--store", options->sources.store,
                        "check against this study store (path or postgresql:// URL) instead of the one the manifest names");
    command->add_option("--audit", options->sources.audit,
                        "check against this audit log instead of the one the manifest names");
    command->add_flag("--strict", options->strict, "exit 1 unless the artifact was verified against its study store");
    command->add_flag("--json", options->json, "print the manifest and the checks as JSON");
    command->footer("Exit codes: 0 no check found a mismatch (each check is printed: passed, or unverified with why); "
                    "1 a mismatch: the artifact changed since its manifest was written, or it disagrees with the study "
                    "store or the audit log (a re-hashed manifest), or it cannot be read; with --strict also when the "
                    "study check could not be made; 2 no manifest beside the artifact, or bad options.");
    command->callback([options, &action] { action = [options] { return run_inspect(*options); }; });
}

}  // namespace routetune::cli
