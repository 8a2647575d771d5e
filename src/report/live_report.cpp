// Reads each store read-only on every call (a store being written by a running `tune` is
// safe to read: every evaluation is its own committed transaction), then renders.
#include "report/live_report.hpp"

#include <nlohmann/json.hpp>

#include "report/html_report.hpp"
#include "study/study_notes.hpp"
#include "study/study_runner.hpp"
#include "util/output_schema.hpp"

namespace routetune {

namespace {

std::vector<HtmlStudy> load(const std::vector<StoreLocation>& stores) {
    std::vector<HtmlStudy> studies;
    for (const auto& store : stores) studies.push_back({load_study_summary(store), load_study_metric(store)});
    return studies;
}

}  // namespace

std::string live_page(const std::vector<StoreLocation>& stores, int poll_s) {
    auto studies = load(stores);
    HtmlOptions options;
    options.live_poll_s = poll_s;
    options.state = study_state(studies);
    return html_report(studies, options);
}

std::string live_state(const std::vector<StoreLocation>& stores) {
    auto studies = load(stores);
    nlohmann::json out;
    out["state"] = study_state(studies);
    out["studies"] = nlohmann::json::array();
    for (const auto& s : studies) {
        std::size_t finished = 0;
        for (const auto& e : s.summary.evaluations) finished += e.status != Status::Pending;
        out["studies"].push_back({{"study", s.summary.study},
                                  {"evaluations", s.summary.evaluations.size()},
                                  {"finished", finished},
                                  {"outcome", std::string(to_string(s.summary.outcome))}});
    }
    return versioned_json_text(out, -1);
}

}  // namespace routetune
