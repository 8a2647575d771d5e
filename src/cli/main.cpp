// The routetune executable: parses the command line with CLI11, runs one subcommand, and maps
// the library's error types to the exit codes of the design (0, 1, 2, 3, 130; commands return 4 and 5).
// SIGXFSZ is ignored, so a write past the file-size limit (ulimit -f) fails with EFBIG and is
// reported like a full disk instead of ending routetune without a word (its children get the
// default back); running out of memory is a plain message, not a bare std::bad_alloc.
#include <signal.h>

#include <iostream>
#include <new>

#include "cli/cli_support.hpp"
#include "cli/commands.hpp"
#include "cli/manual_pages.hpp"
#include "cli/option_types.hpp"
#include "cli/unknown_command.hpp"
#include "routetune/error.hpp"

int main(int argc, char** argv) {
    signal(SIGXFSZ, SIG_IGN);
    CLI::App app{"routetune: find the fastest build route of a compiler for a workload, and prove it correct"};
    app.require_subcommand(1);
    app.footer("Exit codes (each command's --help lists its own): 0 success; 1 a runtime failure (or, for tune, "
               "no eligible route); 2 bad input, nothing ran; 3 a changed environment fingerprint (or a stale lock); "
               "4 a tampered lock or audit log; 5 a review verdict other than keep; 130 interrupted. See man routetune.");
    app.set_version_flag("--version", std::string("routetune ") + ROUTETUNE_VERSION);
    routetune::cli::remember_command_line(argc, argv);
    routetune::cli::Action action;
    routetune::cli::add_knobs_command(app, action);
    routetune::cli::add_expand_command(app, action);
    routetune::cli::add_tune_command(app, action);
    routetune::cli::add_build_command(app, action);
    routetune::cli::add_report_command(app, action);
    routetune::cli::add_serve_command(app, action);
    routetune::cli::add_inspect_command(app, action);
    routetune::cli::add_simulate_command(app, action);
    routetune::cli::add_import_command(app, action);
    routetune::cli::add_export_command(app, action);
    routetune::cli::add_worker_command(app, action);
    routetune::cli::add_promote_command(app, action);
    routetune::cli::add_verify_command(app, action);
    routetune::cli::add_flags_command(app, action);
    routetune::cli::add_audit_command(app, action);
    routetune::cli::add_gc_command(app, action);
    routetune::cli::add_review_command(app, action);
    routetune::cli::add_retire_command(app, action);
    routetune::cli::add_manuals_command(app, action);
    routetune::cli::name_option_types(app);
    if (std::string unknown = routetune::cli::unknown_command_message(app, argc, argv); !unknown.empty()) {
        std::cerr << "routetune: error: " << unknown << "\n";
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    try {
        return action ? action() : 2;
    } catch (const routetune::UsageError& e) {
        std::cerr << "routetune: error: " << e.what() << "\n";
        return 2;
    } catch (const routetune::FingerprintMismatch& e) {
        std::cerr << "routetune: the environment changed since the study began:\n" << e.what() << "\n";
        return 3;
    } catch (const routetune::Interrupted& e) {
        std::cerr << "routetune: interrupted: " << e.what() << "\n";
        return 130;
    } catch (const std::bad_alloc&) {
        std::cerr << "routetune: failure: out of memory (a limit on routetune's memory, ulimit -v or a cgroup, "
                     "is smaller than what this command needs)\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "routetune: failure: " << e.what() << "\n";
        return 1;
    }
}
