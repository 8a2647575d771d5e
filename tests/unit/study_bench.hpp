// One small study over fakes, shared by the scheduler, confirmation and evaluator tests: a
// catalog of two knobs (-a in 0..3, -b on|off), an adapter that turns a route into its own
// tokens as flags, a spec building with "fakecc" and running the artifact, one case by
// default, a store and scratch folders under a fresh temporary folder, a FakeClock and a
// fake::CommandRunner. Nothing here starts a process.
#pragma once

#include <filesystem>
#include <memory>
#include <sstream>
#include <string>

#include "eval/evaluator.hpp"
#include "routetune/expression.hpp"
#include "store/study_store.hpp"
#include "eval/study_paths.hpp"
#include "unit/fake_command_runner.hpp"
#include "unit/routes_catalog.hpp"
#include "util/clock.hpp"
#include "util/files.hpp"

namespace routetune::fake {

/// An adapter whose flags are the route's own tokens ("-a=1 -b=on" -> {"-a=1", "-b=on"}).
class FlagAdapter : public Adapter {
public:
    explicit FlagAdapter(Catalog catalog) : catalog_(std::move(catalog)) {}
    std::string name() const override { return "fake"; }
    Catalog discover() override { return catalog_; }
    AppliedRoute apply(const Route& route, const Catalog&) const override {
        AppliedRoute applied;
        std::istringstream tokens(route.to_string());
        for (std::string token; tokens >> token;) applied.flags.push_back(token);
        return applied;
    }
    /// A conflict for the routes named in conflicts, none for the others; counts the checks.
    RouteCheck check(const Route& route, const Catalog&, const AppliedRoute&) const override {
        ++checks;
        RouteCheck check;
        check.compiler = "fake";
        check.checked = true;
        auto found = conflicts.find(route.to_string());
        if (found != conflicts.end()) check.conflicts.push_back(found->second);
        return check;
    }

    std::map<std::string, KnobConflict> conflicts;  ///< route text -> what its check reports
    mutable int checks = 0;                         ///< check() calls

private:
    Catalog catalog_;
};

/// The two-knob catalog.
inline Catalog bench_catalog() {
    Catalog catalog;
    catalog.add(fixture::enum_knob("-a", {"0", "1", "2", "3"}, "0"));
    catalog.add(fixture::bool_knob("-b", "off"));
    return catalog;
}

/// Everything one fake study needs.
struct StudyBench {
    std::filesystem::path dir;
    Spec spec;
    Catalog catalog = bench_catalog();
    FlagAdapter adapter{bench_catalog()};
    StudyPaths paths;
    CommandRunner runner;
    FakeClock clock{1000};

    StudyBench() {
        dir = make_scratch_folder(std::filesystem::temp_directory_path(), "routetune-bench-");
        spec.dir = dir;
        spec.file = dir / "spec.toml";
        spec.name = "bench";
        spec.compiler.adapter = "fake";
        spec.compiler.path = "fakecc";
        spec.build.command = {"{compiler}", "{flags}", "-o", "{artifact}"};
        spec.build.timeout_s = 100;
        spec.run.command = {"{artifact}"};
        spec.run.timeout_s = 60;
        spec.run.relative_timeout = 10;
        spec.timing.warmup = 0;
        spec.timing.repeats = 3;
        spec.timing.min_gain = 0.02;
        spec.timing.confirm_rounds = 5;
        CaseSpec only;
        only.name = "a";
        spec.cases = {only};
        paths = make_study_paths(dir, "bench", dir / "bench.sqlite");
    }
    ~StudyBench() { remove_tree_quietly(dir); }
    StudyBench(const StudyBench&) = delete;
    StudyBench& operator=(const StudyBench&) = delete;

    /// An evaluator over the fake runner (spec must not change while it lives).
    std::unique_ptr<Evaluator> evaluator() {
        return std::make_unique<Evaluator>(spec, adapter, catalog, paths, runner);
    }
    /// The expression text over the catalog.
    Expression expression(const std::string& text) const { return parse_expression(text, catalog); }
    /// A baseline: every case's reference is "42\n" and the default took default_s per case.
    RunBaseline baseline(double default_s = 0.1) const {
        RunBaseline baseline;
        for (const auto& c : spec.cases) {
            baseline.reference_outputs[c.name] = "42\n";
            baseline.default_case_s[c.name] = default_s;
        }
        return baseline;
    }
};

}  // namespace routetune::fake
