// Rounds are kept as they end: a measured round adds its cases' samples to each case and the
// index-wise sums to the evaluation's samples; a paired round adds the two sums to the pairs.
// Summaries come from core's summarize (median and the order-statistic interval).
#include "eval/measured_rounds.hpp"

#include <algorithm>

#include "util/statistics.hpp"

namespace routetune {

std::vector<double> add_cases(const std::vector<std::vector<double>>& per_case) {
    std::size_t length = per_case.empty() ? 0 : per_case.front().size();
    for (const auto& samples : per_case) length = std::min(length, samples.size());
    std::vector<double> sums(length, 0.0);
    for (const auto& samples : per_case) {
        for (std::size_t j = 0; j < length; ++j) sums[j] += samples[j];
    }
    return sums;
}

MeasuredRounds::MeasuredRounds(std::size_t cases, int warmup)
    : warmup_(warmup), timed_(cases, false), case_samples_(cases), wall_(cases), first_(cases, 0) {}

void MeasuredRounds::begin(int round) {
    round_ = round;
    sum_ = partner_sum_ = 0;
    round_samples_.clear();
}

void MeasuredRounds::add(std::size_t i, double time_s, const std::vector<double>& samples, double wall_s, bool timed) {
    wall_[i].push_back(wall_s);
    if (!timed) return;
    timed_[i] = true;
    if (round_ == 0) first_[i] = time_s;
    if (round_ >= warmup_) case_samples_[i].insert(case_samples_[i].end(), samples.begin(), samples.end());
    round_samples_.push_back(samples);
    sum_ += time_s;
}

void MeasuredRounds::add_partner(double time_s) { partner_sum_ += time_s; }

void MeasuredRounds::end(bool paired) {
    if (round_ < warmup_) return;
    std::vector<double> added = add_cases(round_samples_);
    samples_.insert(samples_.end(), added.begin(), added.end());
    if (!paired) return;
    paired_.default_s.push_back(partner_sum_);
    paired_.candidate_s.push_back(sum_);
}

double MeasuredRounds::median_wall(std::size_t i) const { return median(wall_[i]); }

void MeasuredRounds::finish(Evaluation& e, bool paired) const {
    for (std::size_t i = 0; i < e.cases.size() && i < case_samples_.size(); ++i)
        if (timed_[i]) e.cases[i].timing = summarize(case_samples_[i]);
    e.timing = summarize(samples_);
    e.paired = paired ? paired_ : PairedTiming{};
}

}  // namespace routetune
