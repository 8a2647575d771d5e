// What one measurement gathers round by round: every case's samples and wall times, each
// round's samples (its timed cases' samples added index by index), and, when the rounds are paired
// with the default's runs, each round's time of both. Warm-up rounds come first and only
// their first round's times are kept (a route found inaccurate there reports that round).
#pragma once

#include <cstddef>
#include <vector>

#include "routetune/evaluation.hpp"

namespace routetune {

/// The samples of one round: the cases' samples added index by index (as long as the shortest).
std::vector<double> add_cases(const std::vector<std::vector<double>>& per_case);

/// The times of one measurement's rounds.
class MeasuredRounds {
public:
    /// For cases cases, of which the first warmup rounds are warm-ups.
    MeasuredRounds(std::size_t cases, int warmup);

    /// Starts round (0-based, warm-ups included).
    void begin(int round);
    /// The measured build's run of case i in this round: its wall time, and when the case is
    /// timed (not a component-failure case) its time and samples.
    void add(std::size_t i, double time_s, const std::vector<double>& samples, double wall_s, bool timed);
    /// The paired default's run of a case in this round.
    void add_partner(double time_s);
    /// Ends the round; paired: the default's run of every case sat beside this round's runs.
    void end(bool paired);

    /// This round's time: its cases' times summed.
    double round_time() const { return sum_; }
    /// Case i's time in the first round.
    double first_time(std::size_t i) const { return first_[i]; }
    /// Case i's median wall time over every round.
    double median_wall(std::size_t i) const;
    /// Sets the timed cases' timing, e's timing, and (when every measured round was paired) its pairs.
    void finish(Evaluation& e, bool paired) const;

private:
    int warmup_;
    int round_ = 0;
    double sum_ = 0;
    double partner_sum_ = 0;
    std::vector<bool> timed_;
    std::vector<std::vector<double>> case_samples_;
    std::vector<std::vector<double>> round_samples_;
    std::vector<std::vector<double>> wall_;
    std::vector<double> first_;
    std::vector<double> samples_;
    PairedTiming paired_;
};

}  // namespace routetune
