// `routetune audit [--audit FILE] [--verify] [--json]`: lists an audit log and checks its hash
// chain; exit 4 (tampered) names the first entry that does not match, a torn line included.
// Without --audit the one *.audit.jsonl file in the current folder is read; a link or a file that
// is not regular is refused, and the read is bounded (govern/audit_file.hpp).
#include <iostream>
#include <memory>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/lock_options.hpp"
#include "govern/audit_file.hpp"
#include "govern/audit_log.hpp"
#include "govern/override_rate.hpp"
#include "routetune/error.hpp"
#include "util/output_schema.hpp"

namespace routetune::cli {

namespace {

namespace fs = std::filesystem;

struct AuditArguments {
    std::string file;
    bool verify = false;
    bool json = false;
};

fs::path find_log() {
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(fs::current_path()))
        if (entry.path().string().ends_with(".audit.jsonl")) found.push_back(entry.path());
    if (found.size() != 1)
        throw UsageError("audit: " + std::to_string(found.size()) + " *.audit.jsonl files in " +
                         fs::current_path().string() + "; name one with --audit FILE");
    return found.front();
}

std::string text_of(const nlohmann::json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

int run(const AuditArguments& a) {
    fs::path file = a.file.empty() ? find_log() : fs::path(a.file);
    std::optional<std::string> text = read_audit_log(file);
    if (!text) throw UsageError(file.string() + ": no audit log here (missing)");
    std::optional<AuditBreak> broken = a.verify ? verify_audit_chain(*text) : std::nullopt;
    std::vector<nlohmann::json> entries = parse_audit_lines(*text);
    if (a.json) {
        nlohmann::json out{{"file", file.string()},
                           {"entries", entries},
                           {"override_rate", override_rate_json(override_rate(entries))}};
        if (a.verify) out["intact"] = !broken;
        if (broken) out["first_bad"] = {{"line", broken->line}, {"message", broken->message}};
        std::cout << versioned_json_text(out);
    } else {
        for (const auto& e : entries) {
            std::cout << text_of(e.value("time", nlohmann::json(""))) << "  " << text_of(e.value("actor", nlohmann::json("")))
                      << "  " << text_of(e.value("action", nlohmann::json(""))) << "  "
                      << text_of(e.value("subject", nlohmann::json(""))) << "  "
                      << text_of(e.value("result", nlohmann::json(""))) << "\n";
        }
        if (a.verify && !broken) std::cout << "chain intact: " << entries.size() << " entries in " << file.string() << "\n";
    }
    if (broken) {
        std::cerr << "routetune: " << file.string() << ": entry " << broken->line << " does not match: " << broken->message
                  << "\n";
        return kExitTampered;
    }
    return 0;
}

}  // namespace

void add_audit_command(CLI::App& app, Action& action) {
    auto a = std::make_shared<AuditArguments>();
    CLI::App* c = app.add_subcommand("audit", "List an audit log and check its hash chain");
    c->add_option("--audit", a->file, "the audit log (default: the one *.audit.jsonl here)");
    c->add_flag("--verify", a->verify, "check the hash chain; exit 4 naming the first bad entry");
    c->add_flag("--json", a->json, "print the entries and the override rate as JSON");
    c->footer("Exit codes: 0 listed (with --verify: the chain is intact); 2 no log, or a link or a file that is not "
              "regular; 4 the chain is broken (the first bad entry named, a torn line included).");
    c->callback([a, &action] { action = [a] { return run(*a); }; });
}

}  // namespace routetune::cli
