// The feasibility model works on the posterior odds that a value is bad. Prior odds are
// q/(1-q). An Ok route containing the value multiplies them by 0.02 (a bad value fails every
// route it is in, up to interactions). A failed route whose uncleared values number u
// multiplies them by 1 / max(1 - (1-q)^(u-1), 0.05): the likelihood ratio of "this value
// is bad" against "another uncleared value is", floored because failures also come from
// interactions and flaky builds. Cleared values are those seen in some Ok route; a failed
// route with no uncleared value blames all of its values weakly instead (an interaction).
// With a context point (the incumbent a search builds on), the values of a failed route that
// differ from the context are suspects too, cleared or not: the context is known to build,
// so one of the changes made to it fails in its company. Without this, a change that clears
// in one route and conflicts with the incumbent (gcc: section anchors need top-level
// reordering) is blamed so weakly that a search proposes it hundreds of times.
#include "search/feasibility_model.hpp"

#include <cmath>

namespace routetune {

namespace {

constexpr double kOkFactor = 0.02;
constexpr double kFloor = 0.05;

}  // namespace

FeasibilityModel::FeasibilityModel(const SearchSpace& space, const PointHistory& history, double prior_bad,
                                   const Point* context) {
    std::size_t dims = space.dimensions();
    log_odds_bad_.resize(dims);
    feasible_.resize(dims);
    std::vector<std::vector<char>> cleared(dims);
    for (std::size_t d = 0; d < dims; ++d) {
        log_odds_bad_[d].assign(space.choices(d), std::log(prior_bad / (1 - prior_bad)));
        cleared[d].assign(space.choices(d), 0);
    }
    for (const auto& entry : history.finished) {
        if (entry.observation->status != Status::Ok) continue;
        for (std::size_t d = 0; d < dims; ++d) {
            std::uint32_t c = entry.point[d];
            if (c == 0) continue;
            cleared[d][c] = 1;
            log_odds_bad_[d][c] += std::log(kOkFactor);
        }
    }
    for (const auto& entry : history.finished) {
        if (entry.observation->status == Status::Ok) continue;
        auto suspect = [&](std::size_t d, std::uint32_t c) {
            return cleared[d][c] == 0 || (context != nullptr && (*context)[d] != c);
        };
        std::size_t suspects = 0, changed = 0;
        for (std::size_t d = 0; d < dims; ++d) {
            std::uint32_t c = entry.point[d];
            if (c == 0) continue;
            ++changed;
            suspects += suspect(d, c);
        }
        if (changed == 0) continue;
        bool interaction = suspects == 0;
        std::size_t u = interaction ? changed : suspects;
        double other = 1.0 - std::pow(1.0 - prior_bad, static_cast<double>(u - 1));
        double factor = interaction ? 1.0 / (1.0 - 0.5 / static_cast<double>(u)) : 1.0 / std::max(other, kFloor);
        for (std::size_t d = 0; d < dims; ++d) {
            std::uint32_t c = entry.point[d];
            if (c != 0 && (interaction || suspect(d, c))) log_odds_bad_[d][c] += std::log(factor);
        }
    }
    for (std::size_t d = 0; d < dims; ++d) {
        feasible_[d].resize(space.choices(d));
        for (std::uint32_t c = 0; c < space.choices(d); ++c)
            feasible_[d][c] = c == 0 ? 1.0 : 1.0 / (1.0 + std::exp(log_odds_bad_[d][c]));
    }
}

double FeasibilityModel::value(std::size_t d, std::uint32_t c) const { return feasible_[d][c]; }

double FeasibilityModel::route(const Point& point) const {
    double p = 1.0;
    for (std::size_t d = 0; d < point.size(); ++d)
        if (point[d] != 0) p *= feasible_[d][point[d]];
    return p;
}

}  // namespace routetune
