// Walks the CLI11 app that --help prints: for each visible subcommand, its positional
// arguments and options (names, the value's type name, description, default) become a roff
// man page, and the "Exit codes: N text; N text" footer every subcommand carries becomes the
// EXIT STATUS section; the same walk gives the completion script's word lists.
#include "cli/manual_pages.hpp"

#include <sstream>

#include "routetune/error.hpp"
#include "util/files.hpp"

namespace routetune::cli {

namespace {

// Text escaped for roff: backslashes, and a leading '.' or '\'' that would read as a request.
std::string roff(const std::string& text) {
    std::string out;
    bool line_start = true;
    for (char c : text) {
        if (line_start && (c == '.' || c == '\'')) out += "\\&";
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            out += "\\-";
        } else {
            out += c;
        }
        line_start = c == '\n';
    }
    return out;
}

std::vector<const CLI::Option*> positionals(const CLI::App& command) {
    return command.get_options([](const CLI::Option* option) { return option->get_positional(); });
}

std::vector<const CLI::Option*> named_options(const CLI::App& command) {
    return command.get_options([](const CLI::Option* option) { return option->nonpositional(); });
}

std::string upper(std::string text) {
    for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

// The option's names as "--jobs, -j".
std::string option_names(const CLI::Option& option) {
    std::string names;
    for (const auto& name : option.get_lnames()) names += (names.empty() ? "" : ", ") + std::string("--") + name;
    for (const auto& name : option.get_snames()) names += (names.empty() ? "" : ", ") + std::string("-") + name;
    return names;
}

std::string synopsis(const CLI::App& command, const std::string& program) {
    std::string text = ".B " + roff(program + " " + command.get_name()) + "\n";
    for (const CLI::Option* argument : positionals(command)) {
        std::string name = "\\fI" + roff(upper(argument->get_name())) + "\\fR";
        if (argument->get_items_expected_max() > 1) name += "...";
        text += argument->get_required() ? name + "\n" : "[" + name + "]\n";
    }
    if (!named_options(command).empty()) text += "[\\fIOPTIONS\\fR]\n";
    return text;
}

std::string options_section(const CLI::App& command) {
    std::string text;
    for (const CLI::Option* argument : positionals(command)) {
        text += ".TP\n\\fI" + roff(upper(argument->get_name())) + "\\fR\n" + roff(argument->get_description()) + "\n";
    }
    for (const CLI::Option* option : named_options(command)) {
        text += ".TP\n\\fB" + roff(option_names(*option)) + "\\fR";
        std::string type = option->get_type_name();
        if (!type.empty() && option->get_expected_max() != 0) text += " \\fI" + roff(type) + "\\fR";
        text += "\n" + roff(option->get_description());
        if (!option->get_default_str().empty()) text += " (default: " + roff(option->get_default_str()) + ")";
        text += "\n";
    }
    return text;
}

// "Exit codes: 0 a; 1 b." as one .TP item per code.
std::string exit_status_section(const CLI::App& command) {
    std::string footer = command.get_footer();
    const std::string lead = "Exit codes:";
    auto start = footer.find(lead);
    if (start == std::string::npos) return roff(footer) + "\n";
    std::string text;
    std::stringstream items(footer.substr(start + lead.size()));
    for (std::string item; std::getline(items, item, ';');) {
        auto first = item.find_first_not_of(" \n");
        if (first == std::string::npos) continue;
        item = item.substr(first);
        auto space = item.find(' ');
        if (space != std::string::npos && std::isdigit(static_cast<unsigned char>(item[0]))) {
            text += ".TP\n.B " + item.substr(0, space) + "\n" + roff(item.substr(space + 1)) + "\n";
        } else {
            text += ".PP\n" + roff(item) + "\n";
        }
    }
    return text;
}

}  // namespace

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
    return app.get_subcommands([](const CLI::App* command) { return !command->get_group().empty(); });
}

std::string man_page(const CLI::App& command, const std::string& program, const std::string& version) {
    std::string page_name = program + "-" + command.get_name();
    std::string page = ".TH " + roff(upper(page_name)) + " 1 \"\" \"" + roff(program + " " + version) +
                       "\" \"User Commands\"\n";
    page += ".SH NAME\n" + roff(page_name) + " \\- " + roff(command.get_description()) + "\n";
    page += ".SH SYNOPSIS\n" + synopsis(command, program);
    page += ".SH DESCRIPTION\n" + roff(command.get_description()) + ".\n";
    page += ".SH OPTIONS\n" + options_section(command);
    page += ".SH EXIT STATUS\n" + exit_status_section(command);
    page += ".SH SEE ALSO\n.BR " + program + " (1)\n";
    return page;
}

std::string bash_completion(const CLI::App& app, const std::string& program) {
    std::string commands, cases;
    for (const CLI::App* command : visible_subcommands(app)) {
        commands += (commands.empty() ? "" : " ") + command->get_name();
        std::string words = "--help";
        for (const CLI::Option* option : named_options(*command)) {
            for (const auto& name : option->get_lnames()) words += " --" + name;
        }
        cases += "        " + command->get_name() + ") words=\"" + words + "\" ;;\n";
    }
    std::string function = "_" + program;
    return "# bash completion for " + program + " (generated from its command-line definitions)\n" + function +
           "() {\n"
           "    local cur=${COMP_WORDS[COMP_CWORD]} words\n"
           "    if ((COMP_CWORD == 1)); then\n"
           "        COMPREPLY=($(compgen -W \"" + commands + " --help --version\" -- \"$cur\"))\n"
           "        return\n"
           "    fi\n"
           "    case ${COMP_WORDS[1]} in\n" + cases +
           "        *) words=\"\" ;;\n"
           "    esac\n"
           "    if [[ $cur == -* ]]; then\n"
           "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
           "    else\n"
           "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
           "    fi\n"
           "}\n"
           "complete -o filenames -F " + function + " " + program + "\n";
}

void write_manuals(const CLI::App& app, const std::filesystem::path& folder, const std::string& version) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    auto write = [&](const std::string& name, const std::string& text) {
        std::string error;
        if (!write_file(folder / name, text, &error))
            throw RuntimeFailure("cannot write " + (folder / name).string() + ": " + error);
    };
    for (const CLI::App* command : visible_subcommands(app))
        write("routetune-" + command->get_name() + ".1", man_page(*command, "routetune", version));
    write("routetune.bash", bash_completion(app, "routetune"));
}

void add_manuals_command(CLI::App& app, Action& action) {
    auto folder = std::make_shared<std::string>();
    CLI::App* command = app.add_subcommand("manuals", "Write the man pages and the bash completion (run by the build)");
    command->group("");
    command->add_option("--output", *folder, "the folder to write into")->required()->type_name("DIR");
    command->footer("Exit codes: 0 written; 1 a file could not be written.");
    command->callback([&app, folder, &action] {
        action = [&app, folder] {
            write_manuals(app, *folder, ROUTETUNE_VERSION);
            return 0;
        };
    });
}

}  // namespace routetune::cli
