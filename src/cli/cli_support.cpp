#include "cli/cli_support.hpp"

#include <unistd.h>

#include "study/study_setup.hpp"
#include "routetune/error.hpp"
#include "util/text.hpp"

namespace routetune::cli {

namespace {

std::vector<std::string> g_argv;

}  // namespace

void remember_command_line(int argc, char** argv) { g_argv.assign(argv, argv + argc); }

const std::vector<std::string>& command_argv() { return g_argv; }

std::string joined_command_line() {
    std::string line;
    for (const auto& item : g_argv) line += (line.empty() ? "" : " ") + item;
    return line;
}

AdapterChoice choose_adapter(const Spec* spec, const std::string& adapter, const std::string& compiler,
                             const std::string& base, bool has_base) {
    AdapterChoice choice;
    if (spec) {
        choice.name = spec->compiler.adapter;
        choice.options = adapter_options_for(*spec);
    }
    if (!adapter.empty()) choice.name = adapter;
    if (!compiler.empty()) choice.options.compiler = compiler;
    if (has_base) choice.options.base_flags = split_words(base);
    return choice;
}

bool stderr_is_tty() { return isatty(STDERR_FILENO) == 1; }

void add_store_options(CLI::App& command, StoreArguments& arguments) {
    command.add_option("--store", arguments.store,
                       "where the study lives: an SQLite file path, or postgresql://user@host:port/db (shared by workers)");
    command.add_option("--study", arguments.study, "the study's name in a database of several (default: the spec's name)");
}

}  // namespace routetune::cli
