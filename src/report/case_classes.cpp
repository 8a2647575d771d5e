#include "report/case_classes.hpp"

#include <algorithm>
#include <map>

#include "routetune/spec.hpp"

namespace routetune {

std::vector<ClassResult> results_by_class(const StudySummary& summary) {
    std::vector<ClassResult> classes;
    Spec spec;
    try {
        spec = load_spec(summary.spec_path);
    } catch (const std::exception&) {
        return classes;
    }
    std::map<std::string, std::string> class_of;
    for (const std::string& name : case_class_names()) {
        ClassResult result{name};
        for (const auto& test_case : spec.cases) {
            if (test_case.case_class != name) continue;
            (test_case.promotion_only ? result.promotion_only : result.cases).push_back(test_case.name);
            class_of[test_case.name] = name;
        }
        if (!result.cases.empty() || !result.promotion_only.empty()) classes.push_back(result);
    }
    for (auto& result : classes) {
        for (const auto& e : summary.evaluations) {
            bool seen = false;
            bool all_ok = true;
            for (const auto& c : e.cases) {
                auto it = class_of.find(c.name);
                if (it == class_of.end() || it->second != result.case_class || c.status == Status::Pending) continue;
                seen = true;
                all_ok = all_ok && c.status == Status::Ok;
            }
            if (seen) ++(all_ok ? result.passed : result.failed);
        }
    }
    return classes;
}

std::string class_summary_text(const std::vector<ClassResult>& classes) {
    std::string text;
    for (const auto& result : classes) {
        std::string names;
        for (const auto& name : result.cases) names += (names.empty() ? "" : ", ") + name;
        std::string line = result.case_class + ": " + names;
        if (!result.cases.empty())
            line += " (" + std::to_string(result.passed) + " passed, " + std::to_string(result.failed) + " failed)";
        for (const auto& name : result.promotion_only) line += (names.empty() ? "" : ", ") + name + " (promotion-only)";
        text += (text.empty() ? "" : "; ") + line;
    }
    return text;
}

}  // namespace routetune
