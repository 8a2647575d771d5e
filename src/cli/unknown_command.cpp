#include "cli/unknown_command.hpp"

#include "util/edit_distance.hpp"

namespace routetune::cli {

std::string unknown_command_message(const CLI::App& app, int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '-' || argv[1][0] == '\0') return "";
    std::string word = argv[1];
    std::vector<const CLI::App*> commands = app.get_subcommands([](const CLI::App*) { return true; });
    std::string close, all;
    for (const CLI::App* command : commands) {
        const std::string& name = command->get_name();
        if (name == word) return "";
        if (command->get_group().empty()) continue;
        all += (all.empty() ? "" : ", ") + name;
        if (edit_distance(word, name) <= 2 || name.rfind(word, 0) == 0)
            close += (close.empty() ? "'" : "' or '") + name;
    }
    if (!close.empty()) return "unknown command '" + word + "'; did you mean " + close + "'?";
    return "unknown command '" + word + "'; the commands are: " + all;
}

}  // namespace routetune::cli
