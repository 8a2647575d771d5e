// A check's files are named "output-check<n>-<case>" and "metrics-check<n>-<case>.json" in the
// default's scratch folder (Evaluator::run_case's file tag), n counting checks.
#include "eval/default_checker.hpp"

#include "spec/case_names.hpp"

namespace routetune {

void DefaultChecker::remember(const BuiltCandidate& built) {
    std::lock_guard hold(mutex_);
    built_ = built;
}

std::optional<double> DefaultChecker::operator()(CaseLauncher& via) {
    std::optional<BuiltCandidate> built;
    {
        std::lock_guard hold(mutex_);
        built = built_;
    }
    if (!built) return std::nullopt;
    std::string tag = "check" + std::to_string(++checks_) + "-";
    double sum = 0;
    bool failed = false;
    for (const auto& test_case : cases_) {
        CaseRun run = failed ? CaseRun{} : run_case_(*built, test_case, via, tag);
        failed = failed || run.status != Status::Ok;
        sum += run.time_s;
        std::error_code ec;
        std::filesystem::remove(built->workdir / ("output-" + tag + case_file_stem(test_case.name)), ec);
        std::filesystem::remove(built->workdir / ("metrics-" + tag + case_file_stem(test_case.name) + ".json"), ec);
    }
    return failed ? std::nullopt : std::optional<double>(sum);
}

}  // namespace routetune
