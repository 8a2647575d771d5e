// The manuals come from the command-line definitions: every command --help lists shows its
// exit codes, has a generated man page naming each of its options, is listed in the overview
// page, completes in bash, and is found by `man` after `cmake --install`.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "e2e/cli_harness.hpp"

namespace routetune::e2e {
namespace {

// The commands `routetune --help` lists under "Subcommands:".
std::vector<std::string> listed_commands() {
    CliResult help = run_cli({"--help"}, fs::temp_directory_path());
    std::vector<std::string> commands;
    std::stringstream lines(help.out.substr(help.out.find("Subcommands:")));
    std::string line;
    std::getline(lines, line);
    while (std::getline(lines, line) && !line.empty() && line[0] == ' ') {
        std::stringstream words(line);
        std::string name;
        words >> name;
        commands.push_back(name);
    }
    return commands;
}

// The long option names a command's --help lists (the first name on each option's line).
std::vector<std::string> help_options(const std::string& help) {
    std::vector<std::string> names;
    std::regex option_line("^\\s+(?:-[a-zA-Z],)?(--[a-z][a-z0-9-]*)");
    std::stringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
        std::smatch match;
        if (std::regex_search(line, match, option_line)) names.push_back(match[1]);
    }
    return names;
}

fs::path manual_folder() { return fs::path(ROUTETUNE_BINARY).parent_path() / "man"; }

TEST(Manuals, EveryCommandHasExitCodesAGeneratedPageAndAnOverviewEntry) {
    std::vector<std::string> commands = listed_commands();
    ASSERT_GE(commands.size(), 17u) << "the --help listing was not parsed";
    std::string overview = read_file(fs::path(ROUTETUNE_SOURCE_DIR) / "docs" / "routetune.1").value_or("");
    std::string completion = read_file(manual_folder() / "routetune.bash").value_or("");
    for (const auto& command : commands) {
        CliResult help = run_cli({command, "--help"}, fs::temp_directory_path());
        EXPECT_EQ(help.exit_code, 0) << command;
        EXPECT_NE(help.out.find("Exit codes: 0 "), std::string::npos) << command << ":\n" << help.out;
        std::string page = read_file(manual_folder() / ("routetune-" + command + ".1")).value_or("");
        ASSERT_FALSE(page.empty()) << "no generated man page for " << command;
        EXPECT_NE(page.find(".SH EXIT STATUS\n.TP\n.B 0\n"), std::string::npos) << command;
        for (const auto& option : help_options(help.out)) {
            if (option == "--help") continue;
            EXPECT_NE(page.find(std::regex_replace(option, std::regex("-"), "\\-")), std::string::npos)
                << command << " " << option;
            EXPECT_NE(completion.find(" " + option), std::string::npos) << command << " " << option;
        }
        std::string overview_name = std::regex_replace(command, std::regex("-"), "\\-");
        EXPECT_NE(overview.find(".B " + overview_name + "\n"), std::string::npos) << command << " missing from docs/routetune.1";
        EXPECT_NE(completion.find(command + ") words="), std::string::npos) << command;
    }
}

TEST(Manuals, HelpNamesWhatAnOptionTakes) {
    for (const auto& command : listed_commands()) {
        CliResult help = run_cli({command, "--help"}, fs::temp_directory_path());
        EXPECT_EQ(help.out.find(" TEXT"), std::string::npos) << command << " shows an option as TEXT:\n" << help.out;
    }
}

TEST(Manuals, AMistypedCommandIsBadInputWithASuggestion) {
    CliResult typo = run_cli({"tun", "spec.toml"}, fs::temp_directory_path());
    EXPECT_EQ(typo.exit_code, 2);
    EXPECT_NE(typo.err.find("unknown command 'tun'; did you mean 'tune'?"), std::string::npos) << typo.err;
    CliResult far = run_cli({"frobnicate"}, fs::temp_directory_path());
    EXPECT_EQ(far.exit_code, 2);
    EXPECT_NE(far.err.find("the commands are: knobs, expand, tune"), std::string::npos) << far.err;
    EXPECT_EQ(run_cli({"tune", "--help"}, fs::temp_directory_path()).exit_code, 0);
}

TEST(Manuals, ManFindsACommandsPageAfterInstall) {
    fs::path prefix = make_scratch_folder(fs::temp_directory_path(), "routetune-install-");
    ProcessSpec install;
    install.argv = {"cmake", "--install", fs::path(ROUTETUNE_BINARY).parent_path().string(), "--prefix", prefix.string()};
    install.timeout_s = 120;
    ProcessResult installed = run_process(install);
    ASSERT_TRUE(installed.succeeded()) << installed.err;
    EXPECT_TRUE(fs::exists(prefix / "share" / "bash-completion" / "completions" / "routetune"));
    ProcessSpec man;
    man.argv = {"man", "-P", "cat", "routetune-promote"};
    man.env = {{"MANPATH", (prefix / "share" / "man").string()}, {"MANWIDTH", "100"}};
    man.timeout_s = 60;
    ProcessResult page = run_process(man);
    remove_tree_quietly(prefix);
    ASSERT_TRUE(page.succeeded()) << page.err;
    EXPECT_NE(page.out.find("routetune-promote"), std::string::npos) << page.out;
    EXPECT_NE(page.out.find("EXIT STATUS"), std::string::npos) << page.out;
    EXPECT_NE(page.out.find("--lock"), std::string::npos) << page.out;
}

}  // namespace
}  // namespace routetune::e2e
