#include "eval/case_judgement.hpp"

namespace routetune {

namespace {

std::string expected_text(const CaseSpec& test_case) {
    return "a clean failure (run_failed" +
           (test_case.expect_exit ? ", exit code " + std::to_string(*test_case.expect_exit) : std::string()) + ")";
}

CaseVerdict judge_under(const AccuracyRule& rule, const CaseSpec& test_case, const CaseRun& run,
                        const std::string* reference) {
    if (!compares_output(test_case)) {
        std::string expected = "expected " + expected_text(test_case);
        if (run.status == Status::Ok) return {Status::Inaccurate, 0, expected + " but the run exited 0"};
        if (run.status != Status::RunFailed) return {run.status, 0, run.message + " (" + expected + ")"};
        if (test_case.expect_exit && run.exit_code != *test_case.expect_exit)
            return {Status::RunFailed, 0, run.message + " (" + expected + ")"};
        return {};
    }
    if (run.status != Status::Ok) return {run.status, 0, run.message};
    if (!reference) return {};
    CaseCheck check = check_case(run.output, *reference, rule);
    if (check.passed) return {Status::Ok, check.loss, ""};
    return {Status::Inaccurate, check.loss, check.message};
}

}  // namespace

bool compares_output(const CaseSpec& test_case) { return test_case.expect == "ok"; }

bool is_timed(const CaseSpec& test_case) { return test_case.case_class != kComponentFailureClass; }

CaseVerdict judge_case_run(const AccuracySpec& accuracy, const CaseSpec& test_case, const CaseRun& run,
                           const std::string* reference) {
    AccuracyRule rule = accuracy_rule_for(accuracy, test_case.case_class);
    CaseVerdict verdict = judge_under(rule, test_case, run, reference);
    verdict.threshold = rule.threshold;
    return verdict;
}

}  // namespace routetune
