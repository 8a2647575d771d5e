// Cross-field checks of a spec, run once every table is read. Each command item, cwd and
// environment value is scanned for placeholders: an unknown name is an error naming it (with
// the closest valid name); {flags} must be an argv item of its own; the per-case placeholders
// ({input}, {output}, {metrics}) exist only in [run]; {input} needs an input in every case that
// runs with it; reported timing needs {metrics} somewhere in the run, unless the adapter reads
// the time from the run's stdout (trtexec); {compiler} needs a compiler path (the custom
// adapter has none by default); environment names are checked.
#include <algorithm>
#include <cctype>

#include "adapters/adapter_registry.hpp"
#include "util/excerpt.hpp"
#include "spec/placeholders.hpp"
#include "spec/spec_sections.hpp"
#include "routetune/error.hpp"
#include "routetune/timing.hpp"

namespace routetune {

namespace {

enum class Where { Argv, Text };

struct Scan {
    const TomlSection* section;
    std::string key;
    bool build = false;
    bool uses_input = false;
    bool uses_metrics = false;
    bool uses_compiler = false;
};

std::string placeholder_list() {
    std::string text;
    for (const auto& name : spec_placeholder_names()) text += (text.empty() ? "{" : ", {") + name + "}";
    return text;
}

void scan_item(Scan& scan, const std::string& item, Where where) {
    for (const auto& use : find_placeholders(item)) {
        const auto& known = spec_placeholder_names();
        if (std::find(known.begin(), known.end(), use.name) == known.end()) {
            std::string message = "unknown placeholder {" + use.name + "} in " + quoted_excerpt(item) + " (valid: " +
                                  placeholder_list() + ")";
            std::string suggestion = closest_name(use.name, known);
            if (!suggestion.empty()) message += "; did you mean {" + suggestion + "}?";
            scan.section->fail(scan.key, message);
        }
        if (use.name == "flags" && (where == Where::Text || !use.whole_item)) {
            scan.section->fail(scan.key, "{flags} stands for several argv items and must be a command item of its "
                                         "own, not part of " + quoted_excerpt(item));
        }
        if (scan.build && (use.name == "input" || use.name == "output" || use.name == "metrics")) {
            scan.section->fail(scan.key, "{" + use.name + "} belongs to one run of one case and is only available "
                                         "in [run] and [[case]] args");
        }
        scan.uses_input = scan.uses_input || use.name == "input";
        scan.uses_metrics = scan.uses_metrics || use.name == "metrics";
        scan.uses_compiler = scan.uses_compiler || use.name == "compiler";
    }
}

Scan scan_command_table(const TomlSection& section, const std::vector<std::string>& command, const std::string& cwd,
                        const std::map<std::string, std::string>& env, bool build) {
    Scan total{&section, "command", build};
    for (const auto& item : command) scan_item(total, item, Where::Argv);
    Scan cwd_scan{&section, "cwd", build};
    scan_item(cwd_scan, cwd, Where::Text);
    Scan env_scan{&section, "env", build};
    for (const auto& [name, value] : env) scan_item(env_scan, value, Where::Text);
    total.uses_input = total.uses_input || cwd_scan.uses_input || env_scan.uses_input;
    total.uses_metrics = total.uses_metrics || cwd_scan.uses_metrics || env_scan.uses_metrics;
    total.uses_compiler = total.uses_compiler || cwd_scan.uses_compiler || env_scan.uses_compiler;
    for (const auto& [name, value] : env) {
        bool valid = !name.empty() && !(name.front() >= '0' && name.front() <= '9');
        for (char c : name) valid = valid && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
        if (!valid) section.fail("env", quoted_excerpt(name) + " is not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)");
    }
    return total;
}

// [run] server starts once per lane and serves every route and case: only what all of them share
// may be in its argv, and the time must come from the program (a process's wall time is not one run's).
void validate_server(const Spec& spec, const TomlSection& run_section) {
    if (spec.run.server.empty()) return;
    for (const auto& item : spec.run.server) {
        for (const auto& use : find_placeholders(item)) {
            if (use.name != "compiler" && use.name != "spec_dir")
                run_section.fail("server", "{" + use.name + "} in " + quoted_excerpt(item) + ": the measurement process "
                                           "serves every route and case, so only {compiler} and {spec_dir} are known "
                                           "when it starts (each request names the rest)");
        }
    }
    if (!timing_source_traits(spec.timing.source).reads_metrics)
        run_section.fail("server", "a warm measurement process needs [timing] source = \"reported\": its wall time "
                                   "is not one run's, so each run must report its own time in {metrics}");
}

}  // namespace

void validate_placeholders(const Spec& spec, const TomlSection& root) {
    auto build_section = root.table("build");
    auto run_section = root.table("run");
    Scan build = scan_command_table(*build_section, spec.build.command, spec.build.cwd, spec.build.env, true);
    Scan run = scan_command_table(*run_section, spec.run.command, spec.run.cwd, spec.run.env, false);
    if (spec.compiler.path.empty() && (build.uses_compiler || run.uses_compiler)) {
        (build.uses_compiler ? *build_section : *run_section)
            .fail("command", "uses {compiler}, but adapter '" + spec.compiler.adapter +
                                 "' has no default compiler: set [compiler] path");
    }

    auto case_sections = root.tables("case");
    bool metrics_in_every_case = !case_sections.empty();
    for (std::size_t i = 0; i < case_sections.size(); ++i) {
        Scan args{&case_sections[i], "args", false};
        for (const auto& item : spec.cases[i].args) scan_item(args, item, Where::Argv);
        metrics_in_every_case = metrics_in_every_case && args.uses_metrics;
        if ((run.uses_input || args.uses_input) && spec.cases[i].input.empty()) {
            case_sections[i].fail("", "case " + quoted_excerpt(spec.cases[i].name) + " has no input, but {input} is used by " +
                                          (args.uses_input ? "its args" : "[run]"));
        }
    }
    if (run.uses_input && case_sections.empty()) {
        run_section->fail("command", "uses {input}, but the spec declares no [[case]] with an input");
    }
    validate_server(spec, *run_section);
    const AdapterEntry* adapter = find_adapter(spec.compiler.adapter);
    bool time_on_stdout = adapter && adapter->times_on_stdout;
    if (timing_source_traits(spec.timing.source).reads_metrics && !run.uses_metrics && !metrics_in_every_case && !time_on_stdout) {
        run_section->fail("command", "[timing] source = \"" + spec.timing.source + "\" needs {metrics} in the run command, its env "
                                     "or every case's args: the program writes {\"time_ms\": ...} there");
    }
}

}  // namespace routetune
