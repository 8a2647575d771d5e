// Spec loading. The TOML text is parsed by toml++ (a syntax error becomes a UsageError with
// file:line:column), then each table is read through TomlSection, which rejects unknown keys,
// wrong types and out-of-range numbers where they stand. Paths are resolved against the
// spec's folder; cross-field rules (placeholders, {input} versus cases, {metrics} versus
// reported timing) run last, in spec_validation.cpp. A spec without [[case]] gets one case
// named "default" with no input and no reference.
#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "spec/case_names.hpp"
#include "adapters/adapter_registry.hpp"
#include "spec/build_inputs.hpp"
#include "search/strategy_registry.hpp"
#include "spec/spec_sections.hpp"
#include "util/excerpt.hpp"
#include "routetune/error.hpp"
#include "routetune/timing.hpp"
#include "util/bounded_read.hpp"
#include "util/confined_path.hpp"
#include "util/sha256.hpp"

namespace routetune {

namespace {

std::vector<std::string> strategy_names_for_spec() {
    std::vector<std::string> names;
    for (const auto& entry : strategy_registry()) names.emplace_back(entry.name);
    return names;
}

std::vector<std::string> adapter_names_for_spec() {
    std::vector<std::string> names;
    for (const auto& entry : adapter_registry()) names.emplace_back(entry.name);
    return names;
}

std::vector<std::string> required_command(const TomlSection& section) {
    if (!section.has("command")) section.fail("", "'command' is required (a non-empty array of strings)");
    auto command = *section.strings("command");
    if (command.empty()) section.fail("command", "must not be empty");
    if (command.front().empty()) section.fail("command", "the program (first item) must not be empty");
    return command;
}

std::string resolve_cwd(const Spec& spec, const std::string& cwd) {
    if (cwd.empty() || cwd.find('{') != std::string::npos) return cwd;
    return resolve_spec_path(spec, cwd).string();
}

void read_compiler(Spec& spec, const TomlSection& root) {
    auto section = root.table("compiler");
    if (section) {
        section->check_keys({"adapter", "path", "base", "host_isa_only"});
        if (auto adapter = section->choice("adapter", adapter_names_for_spec())) spec.compiler.adapter = *adapter;
    }
    if (const AdapterEntry* entry = find_adapter(spec.compiler.adapter)) spec.compiler.path = entry->default_compiler;
    if (!section) return;
    if (auto path = section->string("path")) {
        if (path->empty() && spec.compiler.adapter != "custom")
            section->fail("path", "must not be empty for adapter '" + spec.compiler.adapter + "'");
        spec.compiler.path = path->find('/') == std::string::npos ? *path : resolve_spec_path(spec, *path).string();
    }
    if (auto base = section->strings("base")) spec.compiler.base = *base;
    if (auto host_isa_only = section->boolean("host_isa_only")) spec.compiler.host_isa_only = *host_isa_only;
}

void read_build(Spec& spec, const TomlSection& root) {
    auto section = root.table("build");
    if (!section) throw UsageError(spec.file.string() + ": the spec has no [build] table (required: command)");
    section->check_keys({"command", "timeout_s", "relative_timeout", "relative_timeout_floor_s", "memory_limit_mb",
                         "max_output_mb", "cwd", "env", "inputs", "nice"});
    spec.build.command = required_command(*section);
    if (auto value = section->number_in("timeout_s", ranges::timeout_s)) spec.build.timeout_s = *value;
    if (auto value = section->number_in("relative_timeout", ranges::relative_timeout)) spec.build.relative_timeout = *value;
    if (auto value = section->number_in("relative_timeout_floor_s", ranges::relative_timeout_floor_s))
        spec.build.relative_timeout_floor_s = *value;
    if (auto value = section->integer_in("memory_limit_mb", ranges::memory_limit_mb)) spec.build.memory_limit_mb = *value;
    if (auto value = section->integer_in("max_output_mb", ranges::max_output_mb)) spec.build.max_output_mb = *value;
    if (auto value = section->integer_in("nice", ranges::build_nice)) spec.build.nice = static_cast<int>(*value);
    if (auto value = section->string("cwd")) spec.build.cwd = resolve_cwd(spec, *value);
    if (auto value = section->string_map("env")) spec.build.env = *value;
    if (auto inputs = section->strings("inputs")) {
        for (const auto& pattern : *inputs) {
            if (pattern.empty()) section->fail("inputs", "a pattern must not be empty");
            std::string error;
            input_pattern_files(spec, pattern, &error);
            if (!error.empty()) section->fail("inputs", error);
        }
        spec.build.inputs = *inputs;
    }
}

void read_run(Spec& spec, const TomlSection& root) {
    auto section = root.table("run");
    if (!section) throw UsageError(spec.file.string() + ": the spec has no [run] table (required: command)");
    section->check_keys({"command", "timeout_s", "relative_timeout", "relative_timeout_floor_s", "memory_limit_mb",
                         "max_output_mb", "cwd", "env", "server"});
    spec.run.command = required_command(*section);
    if (auto value = section->strings("server")) {
        if (value->empty()) section->fail("server", "must name a command (or be left out: a fresh process per run)");
        spec.run.server = *value;
    }
    if (auto value = section->number_in("timeout_s", ranges::timeout_s)) spec.run.timeout_s = *value;
    if (auto value = section->number_in("relative_timeout", ranges::relative_timeout)) spec.run.relative_timeout = *value;
    if (auto value = section->number_in("relative_timeout_floor_s", ranges::relative_timeout_floor_s))
        spec.run.relative_timeout_floor_s = *value;
    if (auto value = section->integer_in("memory_limit_mb", ranges::memory_limit_mb)) spec.run.memory_limit_mb = *value;
    if (auto value = section->integer_in("max_output_mb", ranges::max_output_mb)) spec.run.max_output_mb = *value;
    if (auto value = section->string("cwd")) spec.run.cwd = resolve_cwd(spec, *value);
    if (auto value = section->string_map("env")) spec.run.env = *value;
}

// [timing] confirm_builds: the adapter's default (kVaryingConfirmBuilds where its builds vary),
// never below it for such an adapter: one build of each route cannot show a spread.
void read_confirm_builds(Spec& spec, const TomlSection* section) {
    const AdapterEntry* adapter = find_adapter(spec.compiler.adapter);
    int least = adapter && adapter->builds_vary ? kVaryingConfirmBuilds : 1;
    spec.timing.confirm_builds = least;
    auto value = section ? section->integer_in("confirm_builds", ranges::confirm_builds) : std::nullopt;
    if (!value) return;
    if (*value < least)
        section->fail("confirm_builds", "the " + spec.compiler.adapter + " adapter's builds differ in speed from build "
                                       "to build: confirm_builds must be at least " + std::to_string(least) +
                                       " (each route's spread needs them)");
    spec.timing.confirm_builds = static_cast<int>(*value);
}

void read_timing(Spec& spec, const TomlSection& root) {
    auto section = root.table("timing");
    read_confirm_builds(spec, section ? &*section : nullptr);
    if (!section) return;
    section->check_keys({"source", "warmup", "repeats", "min_gain", "confirm_rounds", "confirm_top", "confirm_rebuild",
                          "confirm_builds", "reported_list", "paired"});
    if (auto value = section->choice("source", timing_source_names())) spec.timing.source = *value;
    if (auto value = section->choice("reported_list", {"median", "samples"})) spec.timing.reported_list = *value;
    if (auto value = section->integer_in("warmup", ranges::warmup)) spec.timing.warmup = static_cast<int>(*value);
    if (auto value = section->integer_in("repeats", ranges::repeats)) spec.timing.repeats = static_cast<int>(*value);
    if (auto value = section->number_in("min_gain", ranges::min_gain)) spec.timing.min_gain = *value;
    if (auto value = section->integer_in("confirm_rounds", ranges::confirm_rounds))
        spec.timing.confirm_rounds = static_cast<int>(*value);
    if (auto value = section->integer_in("confirm_top", ranges::confirm_top)) spec.timing.confirm_top = static_cast<int>(*value);
    if (auto value = section->boolean("confirm_rebuild")) spec.timing.confirm_rebuild = *value;
    if (auto value = section->boolean("paired")) spec.timing.paired = *value;
}

void read_accuracy(Spec& spec, const TomlSection& root) {
    auto section = root.table("accuracy");
    if (!section) return;
    std::vector<std::string> keys{"format", "metric", "threshold", "atol", "rtol"};
    keys.insert(keys.end(), case_class_names().begin(), case_class_names().end());
    section->check_keys(keys);
    if (auto value = section->choice("format", {"text", "f32", "f64", "i32", "npy", "trtexec-json"})) spec.accuracy.format = *value;
    if (auto value = section->choice("metric", {"exact", "l0", "l1", "l2", "linf", "rel_l2", "cos"}))
        spec.accuracy.metric = *value;
    if (auto value = section->number_at_least("threshold", 0)) spec.accuracy.threshold = *value;
    if (auto value = section->number_at_least("atol", 0)) spec.accuracy.atol = *value;
    if (auto value = section->number_at_least("rtol", 0)) spec.accuracy.rtol = *value;
    for (const std::string& name : case_class_names()) {
        auto rule = section->table(name);
        if (!rule) continue;
        rule->check_keys({"threshold", "atol", "rtol"});
        AccuracyClassSpec& own = spec.accuracy.classes[name];
        own.threshold = rule->number_at_least("threshold", 0);
        own.atol = rule->number_at_least("atol", 0);
        own.rtol = rule->number_at_least("rtol", 0);
    }
}

// A file the spec names for reading: relative paths must stay inside the spec's folder (links
// included); an absolute path is taken as the spec gives it.
std::filesystem::path confined_spec_file(const Spec& spec, const TomlSection& section, const std::string& text,
                                         const std::string& what) {
    auto path = resolve_spec_path(spec, text);
    if (std::filesystem::path(text).is_absolute()) return path;
    if (auto why = outside_folder(spec.dir, path))
        section.fail(what, "file " + quoted_excerpt(text) + " is refused: " + *why +
                               "; files the spec reads stay inside its folder unless it names them by absolute path");
    return path;
}

// The case's input or reference file; must exist, except the input of a component-failure case
// (its absence may be the failure the case is about).
std::filesystem::path existing_case_file(const Spec& spec, const TomlSection& section, const CaseSpec& entry,
                                         const char* key) {
    auto text = section.string(key);
    if (!text) return {};
    if (text->empty()) section.fail(key, "must not be empty");
    auto path = confined_spec_file(spec, section, *text, key);
    bool may_be_absent = entry.case_class == kComponentFailureClass && std::string(key) == "input";
    std::error_code error;
    if (!may_be_absent && !std::filesystem::is_regular_file(path, error))
        section.fail(key, "case " + quoted_excerpt(entry.name) + ": " + key + " file " + quoted_excerpt(*text) +
                              " not found (looked for " + path.string() + ")");
    return path;
}

// class, expect and expect_exit: a component-failure case states its expected outcome, other
// cases expect "ok".
void read_case_outcome(CaseSpec& entry, const TomlSection& section) {
    if (auto value = section.choice("class", case_class_names())) entry.case_class = *value;
    bool component = entry.case_class == kComponentFailureClass;
    if (!component && (section.has("expect") || section.has("expect_exit")))
        section.fail(section.has("expect") ? "expect" : "expect_exit",
                     "only a class = \"component-failure\" case states an expected outcome; other cases must run ok");
    if (!component) return;
    if (!section.has("expect"))
        section.fail("", "case " + quoted_excerpt(entry.name) +
                             ": a component-failure case needs expect = \"run_failed\" (a clean non-zero exit, "
                             "optionally expect_exit = N) or expect = \"ok\" (the program copes; its output is checked)");
    entry.expect = *section.choice("expect", {"ok", "run_failed"});
    if (auto code = section.integer_in("expect_exit", ranges::expect_exit)) {
        if (entry.expect != "run_failed") section.fail("expect_exit", "needs expect = \"run_failed\"");
        entry.expect_exit = static_cast<int>(*code);
    }
}

void read_cases(Spec& spec, const TomlSection& root) {
    std::set<std::string> seen;
    std::map<std::string, std::string> stems;
    for (const auto& section : root.tables("case")) {
        section.check_keys({"name", "input", "reference", "args", "class", "promotion_only", "expect", "expect_exit"});
        CaseSpec entry;
        if (!section.has("name")) section.fail("", "'name' is required");
        entry.name = *section.string("name");
        if (entry.name.empty()) section.fail("name", "must not be empty");
        if (!seen.insert(entry.name).second) section.fail("name", "duplicate case name " + quoted_excerpt(entry.name));
        auto [other, fresh] = stems.emplace(case_file_stem(entry.name), entry.name);
        if (!fresh) {
            section.fail("name", "case names " + quoted_excerpt(other->second) + " and " + quoted_excerpt(entry.name) +
                                     " share the file name '" + other->first +
                                     "' (characters other than letters, digits, - and _ become _); rename one");
        }
        read_case_outcome(entry, section);
        entry.input = existing_case_file(spec, section, entry, "input");
        entry.reference = existing_case_file(spec, section, entry, "reference");
        if (auto args = section.strings("args")) entry.args = *args;
        if (auto value = section.boolean("promotion_only")) entry.promotion_only = *value;
        spec.cases.push_back(std::move(entry));
    }
    if (spec.cases.empty()) spec.cases.push_back(CaseSpec{"default", {}, {}, {}});
    if (std::all_of(spec.cases.begin(), spec.cases.end(),
                    [](const CaseSpec& c) { return c.case_class == kComponentFailureClass; }))
        root.fail("case", "every [[case]] is a component-failure case; a study needs a case whose run it can time");
}

void read_search(Spec& spec, const TomlSection& root) {
    auto section = root.table("search");
    if (!section) return;
    section->check_keys({"routes", "routes_file", "mode", "max_routes", "time_limit_s", "mixed_max_knobs",
                         "include_unsafe", "seed"});
    if (auto value = section->string("routes")) spec.search.routes = *value;
    if (auto value = section->string("routes_file")) {
        if (section->has("routes")) section->fail("routes_file", "give either routes or routes_file, not both");
        auto path = value->empty() ? spec.dir : confined_spec_file(spec, *section, *value, "routes_file");
        std::error_code error;
        if (value->empty() || !std::filesystem::is_regular_file(path, error))
            section->fail("routes_file", "file " + quoted_excerpt(*value) + " not found (looked for " + quoted_excerpt(path.string(), 300) + ")");
        spec.search.routes_file = path.string();
    }
    if (auto value = section->choice("mode", strategy_names_for_spec())) spec.search.mode = *value;
    if (auto value = section->integer_in("max_routes", ranges::max_routes)) spec.search.max_routes = *value;
    if (auto value = section->number_in("time_limit_s", ranges::time_limit_s)) spec.search.time_limit_s = *value;
    if (auto value = section->integer_in("mixed_max_knobs", ranges::mixed_max_knobs))
        spec.search.mixed_max_knobs = static_cast<int>(*value);
    if (auto value = section->boolean("include_unsafe")) spec.search.include_unsafe = *value;
    if (auto value = section->integer_in("seed", ranges::seed)) spec.search.seed = *value;
}

void read_name(Spec& spec, const TomlSection& root) {
    spec.name = spec.file.stem().string();
    auto name = root.string("name");
    if (!name) return;
    if (name->empty() || name->find_first_of("/\\") != std::string::npos || *name == "." || *name == "..")
        root.fail("name", quoted_excerpt(*name) + " must be a non-empty file name (it names the study's cache file)");
    spec.name = *name;
}

}  // namespace

const std::vector<std::string>& case_class_names() {
    static const std::vector<std::string> names{"normal", "boundary", "misuse", kComponentFailureClass};
    return names;
}

std::filesystem::path resolve_spec_path(const Spec& spec, const std::string& path) {
    std::filesystem::path value(path);
    if (value.is_absolute()) return value.lexically_normal();
    return (spec.dir / value).lexically_normal();
}

Spec parse_spec(const std::string& text, const std::filesystem::path& file) {
    Spec spec;
    spec.file = std::filesystem::absolute(file).lexically_normal();
    spec.dir = spec.file.parent_path();
    spec.sha256 = sha256_hex(text);
    toml::table document;
    try {
        document = toml::parse(text, spec.file.string());
    } catch (const toml::parse_error& error) {
        throw UsageError(source_location(spec.file, error.source().begin) + ": malformed TOML: " +
                         std::string(error.description()));
    }
    TomlSection root(document, "the top level", spec.file);
    root.check_keys({"name", "compiler", "build", "run", "timing", "accuracy", "case", "search", "knob"});
    read_name(spec, root);
    read_compiler(spec, root);
    read_build(spec, root);
    read_run(spec, root);
    read_timing(spec, root);
    read_accuracy(spec, root);
    read_cases(spec, root);
    read_search(spec, root);
    spec.knobs = read_declared_knobs(root);
    validate_placeholders(spec, root);
    return spec;
}

Spec load_spec(const std::filesystem::path& file) {
    std::error_code error;
    if (std::filesystem::is_directory(file, error))
        throw UsageError(file.string() + ": is a folder, not a spec file");
    return parse_spec(read_bounded_file(file, kMaxSpecBytes, "spec"), file);
}

}  // namespace routetune
