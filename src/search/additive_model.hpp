// A Bayesian additive model of log run time over knob values, for model-guided search.
#pragma once

#include <vector>

#include "search/search_rng.hpp"
#include "search/search_space.hpp"

namespace routetune {

/// Effects per knob value: [dimension][choice], 0 for the default choice.
using Effects = std::vector<std::vector<double>>;

/// log(median / reference median) = sum of the route's value effects + noise, with a
/// N(0, prior_sd^2) prior on every effect and each observation's noise taken from its CI.
class AdditiveModel {
public:
    /// Fits the Ok observations of history (the most recent max_rows) against reference_s.
    AdditiveModel(const SearchSpace& space, const PointHistory& history, double reference_s,
                  double prior_sd = 0.1, std::size_t max_rows = 400);
    /// The posterior mean of the effects.
    Effects mean() const;
    /// One draw of the effects from the posterior (Thompson sampling).
    Effects sample(SearchRng& rng) const;

private:
    Effects combine(const std::vector<double>& prior, const std::vector<double>& residual) const;

    const SearchSpace& space_;
    std::vector<std::size_t> offset_;             // first feature of each dimension
    std::size_t features_ = 0;
    std::vector<std::vector<std::size_t>> rows_;  // features of each observation
    std::vector<double> y_, noise_var_;
    std::vector<double> chol_;                    // lower Cholesky factor of the row Gram matrix
    double prior_var_;
};

}  // namespace routetune
