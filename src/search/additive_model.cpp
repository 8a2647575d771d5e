// The model is Bayesian linear regression with indicator features (one per non-default knob
// value), solved in its dual form because observations are far fewer than features: with
// X the n x p design, K = s^2 X X' + diag(noise) is n x n and factorised once by Cholesky.
// The posterior mean is s^2 X' K^-1 y. A posterior sample uses Matheron's rule: draw prior
// effects w0 and noise e, then w = w0 + s^2 X' K^-1 (y - X w0 - e), which costs O(n^2 + p)
// per draw instead of a p x p factorisation.
#include "search/additive_model.hpp"

#include <algorithm>
#include <cmath>

namespace routetune {

AdditiveModel::AdditiveModel(const SearchSpace& space, const PointHistory& history, double reference_s,
                             double prior_sd, std::size_t max_rows)
    : space_(space), prior_var_(prior_sd * prior_sd) {
    for (std::size_t d = 0; d < space.dimensions(); ++d) {
        offset_.push_back(features_);
        features_ += space.choices(d) - 1;
    }
    std::vector<const PointHistory::Entry*> ok;
    for (const auto& entry : history.finished)
        if (entry.observation->status == Status::Ok && entry.observation->median_s > 0) ok.push_back(&entry);
    if (ok.size() > max_rows) ok.erase(ok.begin(), ok.end() - static_cast<std::ptrdiff_t>(max_rows));
    for (const auto* entry : ok) {
        std::vector<std::size_t> row;
        for (std::size_t d = 0; d < space.dimensions(); ++d)
            if (entry->point[d] != 0) row.push_back(offset_[d] + entry->point[d] - 1);
        rows_.push_back(std::move(row));
        const Observation& obs = *entry->observation;
        y_.push_back(std::log(obs.median_s / reference_s));
        double width = obs.ci_low_s > 0 && obs.ci_high_s > obs.ci_low_s ? std::log(obs.ci_high_s / obs.ci_low_s) / 3.92 : 0;
        double sd = std::max(width, 0.005);
        noise_var_.push_back(sd * sd);
    }
    std::size_t n = rows_.size();
    chol_.assign(n * n, 0.0);
    std::vector<double> mark(features_, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t f : rows_[i]) mark[f] = 1.0;
        for (std::size_t j = 0; j <= i; ++j) {
            double shared = 0;
            for (std::size_t f : rows_[j]) shared += mark[f];
            chol_[i * n + j] = prior_var_ * shared + (i == j ? noise_var_[i] : 0.0);
        }
        for (std::size_t f : rows_[i]) mark[f] = 0.0;
    }
    for (std::size_t j = 0; j < n; ++j) {
        double diag = chol_[j * n + j];
        for (std::size_t k = 0; k < j; ++k) diag -= chol_[j * n + k] * chol_[j * n + k];
        diag = std::sqrt(std::max(diag, 1e-12));
        chol_[j * n + j] = diag;
        for (std::size_t i = j + 1; i < n; ++i) {
            double v = chol_[i * n + j];
            for (std::size_t k = 0; k < j; ++k) v -= chol_[i * n + k] * chol_[j * n + k];
            chol_[i * n + j] = v / diag;
        }
    }
}

Effects AdditiveModel::combine(const std::vector<double>& prior, const std::vector<double>& residual) const {
    std::size_t n = rows_.size();
    std::vector<double> alpha = residual;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < i; ++k) alpha[i] -= chol_[i * n + k] * alpha[k];
        alpha[i] /= chol_[i * n + i];
    }
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t k = i + 1; k < n; ++k) alpha[i] -= chol_[k * n + i] * alpha[k];
        alpha[i] /= chol_[i * n + i];
    }
    std::vector<double> w = prior;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t f : rows_[i]) w[f] += prior_var_ * alpha[i];
    Effects effects(space_.dimensions());
    for (std::size_t d = 0; d < space_.dimensions(); ++d) {
        effects[d].assign(space_.choices(d), 0.0);
        for (std::uint32_t c = 1; c < space_.choices(d); ++c) effects[d][c] = w[offset_[d] + c - 1];
    }
    return effects;
}

Effects AdditiveModel::mean() const { return combine(std::vector<double>(features_, 0.0), y_); }

Effects AdditiveModel::sample(SearchRng& rng) const {
    std::vector<double> prior(features_);
    double sd = std::sqrt(prior_var_);
    for (double& w : prior) w = sd * rng.normal();
    std::vector<double> residual(rows_.size());
    for (std::size_t i = 0; i < rows_.size(); ++i) {
        double predicted = 0;
        for (std::size_t f : rows_[i]) predicted += prior[f];
        residual[i] = y_[i] - predicted - std::sqrt(noise_var_[i]) * rng.normal();
    }
    return combine(prior, residual);
}

}  // namespace routetune
