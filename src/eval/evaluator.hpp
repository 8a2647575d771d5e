// Evaluating one candidate: build it in its own scratch folder, run it on every case, check
// each case's output against its reference, and time it. Build and measurement are separate
// steps so a scheduler can build several candidates at once while measuring one at a time.
// Every failure becomes a Status on the Evaluation; nothing here throws for a bad candidate.
#pragma once

#include <filesystem>
#include <functional>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routetune/adapter.hpp"
#include "routetune/evaluation.hpp"
#include "routetune/spec.hpp"
#include "eval/candidate_run.hpp"
#include "eval/case_launcher.hpp"
#include "eval/study_paths.hpp"
#include "spec/case_names.hpp"
#include "util/process_runner.hpp"

namespace routetune {

class TimingSource;
class WarmMeasurements;
class DefaultChecker;

/// Set in every build's environment: how many builds this process runs at once (--jobs), so
/// that a build tool that starts its own workers (Inductor's compile workers, one per core by
/// default) can divide the cores among the builds instead of each taking all of them.
inline constexpr const char* kBuildsAtOnceVariable = "ROUTETUNE_BUILDS_AT_ONCE";

/// Builds, runs, checks and times candidates of one spec.
class Evaluator {
public:
    /// An evaluator for spec's commands with adapter's routes; runner runs every process.
    Evaluator(const Spec& spec, const Adapter& adapter, const Catalog& catalog, StudyPaths paths,
              ProcessRunner& runner = real_process_runner());

    ~Evaluator();

    /// Builds route (phase recorded as given) in a fresh scratch folder: the route's own, or
    /// with a copy suffix another one beside it (a further build of the same route); unless the
    /// adapter's check finds a knob the compiler would override (status route_conflict, nothing
    /// built; never for the default route). Thread-safe.
    BuiltCandidate build(const Route& route, const std::string& phase, const std::string& copy = "") const;

    /// The finished evaluation e as a built candidate again: its kept artifact when present
    /// and unchanged (same sha256), else nullopt (the caller rebuilds).
    std::optional<BuiltCandidate> reuse(const Evaluation& e) const;

    /// What e's runs would be (eval/run_identity.hpp): its artifact with its route's environment
    /// and files; two evaluations with the same identity need one measurement. "" when e has
    /// no artifact.
    std::string run_identity(const Evaluation& e) const;

    /// Runs every case (warm-ups, then repeats; a component-failure case once, untimed), judges
    /// each case's first run against baseline (eval/case_judgement.hpp; no accuracy check for a
    /// case without a reference), and fills status, cases and timing. record, when given,
    /// receives each case's first output and wall times. With a partner in baseline
    /// (paired_default, or the build itself under paired_self), each timed case's run sits next
    /// to the partner's run of that case, the partner first in even rounds (after the warm-ups)
    /// and second in odd ones, and the rounds' sums fill paired; a partner's run that fails ends
    /// the pairing (the evaluation is then timed unpaired, its message says why).
    Evaluation measure(const BuiltCandidate& built, const RunBaseline& baseline,
                       DefaultRecord* record = nullptr) const;

    /// One run of one case of a built candidate, with the timeout the baseline allows, through via
    /// (default: the spec's launcher: a fresh process, or the lane's warm process with [run]
    /// server); a file_tag other than "" names its own output and metrics files.
    CaseRun run_case(const BuiltCandidate& built, const CaseSpec& test_case, const RunBaseline& baseline,
                     CaseLauncher* via = nullptr, const std::string& file_tag = "") const;

    /// One round of timing samples: every timed case run once, each sample summed over the cases;
    /// nullopt when a run failed.
    std::optional<std::vector<double>> sample_once(const BuiltCandidate& built, const RunBaseline& baseline) const;

    /// The spec being evaluated.
    const Spec& spec() const { return spec_; }

    /// The warm measurement processes of [run] server, or nullptr (a fresh process per run).
    WarmMeasurements* warm_measurements() const { return warm_.get(); }
    /// Makes built the default that warm processes re-measure first and last (measure() does
    /// this itself when it measures the default well). Thread-safe.
    void remember_default(const BuiltCandidate& built) const;

    /// The default route's build time, which bounds later builds ([build] relative_timeout);
    /// 0 (the start) leaves builds at [build] timeout_s. Thread-safe.
    void set_default_build_s(double seconds) { default_build_s_.store(seconds); }

    /// How many builds run at once beside each other (at least 1), told to each build through
    /// kBuildsAtOnceVariable. Thread-safe.
    void set_builds_at_once(int builds) { builds_at_once_.store(builds < 1 ? 1 : builds); }

private:
    struct Rounds;
    CaseRun run_case_in(const BuiltCandidate& built, const CaseSpec& test_case, const RunBaseline& baseline,
                        const std::filesystem::path& outputs, const std::string& label, CaseLauncher* via,
                        const std::string& file_tag) const;
    bool take_run(Evaluation& e, std::size_t i, int round, const CaseRun& run, const RunBaseline& baseline,
                  DefaultRecord* record, Rounds& rounds) const;
    /// Runs case i of the paired default's build beside the measured one (ends the pairing on failure).
    void run_partner(Rounds& rounds, std::size_t i, const RunBaseline& baseline) const;
    double run_timeout(const CaseSpec& test_case, const RunBaseline& baseline) const;
    /// The limit of a run of a build in a warm measurement process, which loads it again each
    /// time: the run's limit plus the build's own time, at most [run] timeout_s (a relative limit
    /// compares runs with the default's, but what a build takes to load depends on its route).
    double load_timeout(double run_timeout_s, const Evaluation& build) const;
    double build_timeout(std::string* reason) const;

    const Spec& spec_;
    const Adapter& adapter_;
    const Catalog& catalog_;
    StudyPaths paths_;
    ProcessRunner& runner_;
    std::unique_ptr<TimingSource> timing_;
    std::atomic<double> default_build_s_{0};
    std::atomic<int> builds_at_once_{1};
    std::unique_ptr<WarmMeasurements> warm_;   ///< with [run] server
    std::unique_ptr<CaseLauncher> fresh_;      ///< without: a fresh process per run
    std::unique_ptr<DefaultChecker> default_checker_;  ///< with [run] server: what warm processes re-measure
};


}  // namespace routetune
