// Both routes are built by one Evaluator (the study's own build, run and accuracy code, and the
// one judgement of a case's run, eval/case_judgement.hpp), whose
// process runner is wrapped to count processes, so the cost of a check is known. A case's
// reference is its golden file, else the fresh default's output on it; the default's wall
// time bounds the route's runs (relative_timeout). The A/B is ConfirmationRunner::interleave
// over the two builds, and the verdict make_confirmation and pick_winner, as in a study.
#include "govern/regression_run.hpp"

#include <atomic>
#include <sstream>

#include "eval/case_judgement.hpp"
#include "study/confirmation_runner.hpp"
#include "study/selection.hpp"
#include "util/interrupt_guard.hpp"

namespace routetune {

namespace {

constexpr const char* kStopped = "the regression run stopped at a signal; nothing was concluded";

std::string case_label(const CaseSpec& test_case) {
    return "case '" + test_case.name + "' (" + test_case.case_class + (test_case.promotion_only ? ", promotion-only" : "") + ")";
}

// Counts the processes it runs for another runner.
class CountingRunner : public ProcessRunner {
public:
    explicit CountingRunner(ProcessRunner& inner) : inner_(inner) {}
    ProcessResult run(const ProcessSpec& spec) override {
        ++count_;
        return inner_.run(spec);
    }
    std::uint64_t count() const { return count_; }

private:
    ProcessRunner& inner_;
    std::atomic<std::uint64_t> count_{0};
};

std::string number(double value) {
    std::ostringstream text;
    text.precision(4);
    text << value;
    return text.str();
}

}  // namespace

std::string speedup_text(double speedup, double low, double high) {
    return number(speedup) + "x [" + number(low) + ", " + number(high) + "]";
}

RegressionRun::RegressionRun(const Spec& spec, const Adapter& adapter, const Catalog& catalog, StudyPaths paths,
                             ProcessRunner& runner)
    : spec_(spec), adapter_(adapter), catalog_(catalog), paths_(std::move(paths)), runner_(runner) {}

RegressionOutcome RegressionRun::run(const Route& route, const RegressionOptions& options) const {
    RegressionOutcome outcome;
    CountingRunner counting(runner_);
    Evaluator evaluator(spec_, adapter_, catalog_, paths_, counting);
    BuiltCandidate fresh_default = evaluator.build(Route{}, "govern-default");
    BuiltCandidate built = evaluator.build(route, "govern");
    throw_if_interrupted(kStopped);
    outcome.builds = 2;
    outcome.default_build = fresh_default.evaluation;
    outcome.route_build = built.evaluation;
    outcome.route_artifact = built.artifact.string();
    auto build_failure = [&](const BuiltCandidate& b, const std::string& which) {
        if (b.evaluation.status == Status::Pending) return false;
        outcome.failures.push_back(which + " does not build now: " + std::string(to_string(b.evaluation.status)) +
                                   (b.evaluation.message.empty() ? "" : ": " + b.evaluation.message));
        return true;
    };
    bool failed = build_failure(fresh_default, "the default route");
    failed = build_failure(built, "the route " + route.to_string()) || failed;
    if (!failed) {
        RunBaseline baseline;
        if (options.check_cases) check_cases(evaluator, fresh_default, built, baseline, outcome);
        if (options.measure_gain && outcome.passed()) measure_gain(evaluator, fresh_default, built, baseline, outcome);
    }
    outcome.runs = counting.count() - outcome.builds;
    return outcome;
}

void RegressionRun::check_cases(const Evaluator& evaluator, const BuiltCandidate& fresh_default,
                                const BuiltCandidate& route, RunBaseline& baseline, RegressionOutcome& outcome) const {
    for (const CaseSpec& test_case : spec_.cases) {
        RegressionCase result{test_case.name, test_case.case_class, test_case.promotion_only, Status::Pending, 0, 0, ""};
        CaseRun reference_run = evaluator.run_case(fresh_default, test_case, baseline);
        throw_if_interrupted(kStopped);
        CaseVerdict of_default = judge_case_run(spec_.accuracy, test_case, reference_run, nullptr);
        result.threshold = of_default.threshold;
        if (of_default.status != Status::Ok) {
            result.status = of_default.status;
            result.message = "the default route: " + of_default.message;
            outcome.failures.push_back(case_label(test_case) + ": the default route " +
                                       std::string(to_string(of_default.status)) + ": " + of_default.message);
            outcome.cases.push_back(result);
            continue;
        }
        baseline.default_case_s[test_case.name] = reference_run.wall_s;
        std::string reference = test_case.reference.empty() ? reference_run.output
                                                            : read_golden_reference(test_case, spec_.run.max_output_mb);
        CaseRun run = evaluator.run_case(route, test_case, baseline);
        throw_if_interrupted(kStopped);
        CaseVerdict verdict = judge_case_run(spec_.accuracy, test_case, run, &reference);
        result.status = verdict.status;
        result.loss = verdict.loss;
        result.message = verdict.message;
        if (result.status != Status::Ok) {
            outcome.failures.push_back(case_label(test_case) + ": " + std::string(to_string(result.status)) +
                                       ", loss " + number(result.loss) + " (threshold " + number(result.threshold) +
                                       "): " + result.message);
        }
        outcome.cases.push_back(result);
    }
}

void RegressionRun::measure_gain(const Evaluator& evaluator, const BuiltCandidate& fresh_default,
                                 const BuiltCandidate& route, const RunBaseline& baseline,
                                 RegressionOutcome& outcome) const {
    ConfirmationRunner confirmation(evaluator, baseline, spec_.timing);
    std::vector<bool> alive(2, true);
    std::vector<std::string> dropped;
    auto samples = confirmation.interleave({fresh_default, route}, alive, dropped);
    throw_if_interrupted(kStopped);
    if (!alive[0] || !alive[1] || samples[0].empty() || samples[1].empty()) {
        outcome.failures.push_back(std::string(!alive[0] ? "the default route" : "the route") +
                                   " failed a run of the interleaved A/B");
        return;
    }
    Confirmation c = make_confirmation(route.evaluation.route, samples[0], samples[1]);
    outcome.confirmation = c;
    outcome.gain_confirmed = pick_winner({c}, spec_.timing.min_gain).has_value();
    if (!outcome.gain_confirmed) {
        outcome.failures.push_back("the gain vanished: the fresh interleaved A/B over " +
                                   std::to_string(std::max(spec_.timing.confirm_rounds, 1)) + " rounds gives " +
                                   speedup_text(c.speedup, c.ci_low, c.ci_high) + ", and min_gain " +
                                   number(spec_.timing.min_gain) + " needs the interval's low end at " +
                                   number(1 + spec_.timing.min_gain) + " or above");
    }
}

}  // namespace routetune
