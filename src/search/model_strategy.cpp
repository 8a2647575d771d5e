// A tree-structured Parzen estimator (TPE) over knob values, with a feasibility model.
// After the baseline and a few sparse random start-up points, the Ok observations are split
// at the 25% quantile of their median time into "good" and "bad"; for every knob, smoothed
// categorical densities l (good) and g (bad) over its choices are formed, with a prior that
// favours the default so that sampled routes stay sparse in large spaces. Candidates are
// drawn from l, and as one- or two-knob mutations of the best route so far; each is scored
// by log(l/g) summed over knobs (TPE's monotone proxy for expected improvement) plus
// log P(feasible) from the FeasibilityModel, so values that made routes fail are proposed
// less. The best-scoring unobserved candidates are proposed. The random draws are seeded by
// (seed, number of observations), so a given history always yields the same proposals.
#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "search/feasibility_model.hpp"
#include "search/search_rng.hpp"
#include "search/search_space.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

constexpr std::size_t kStartup = 8;
constexpr std::size_t kCandidates = 96;
constexpr double kGamma = 0.25;
constexpr double kPriorStrength = 2.0;

class ModelStrategy : public Strategy {
public:
    ModelStrategy(const Expression& expression, const StrategyOptions& options)
        : space_(expression), options_(options) {
        double dims = static_cast<double>(std::max<std::size_t>(space_.dimensions(), 1));
        change_rate_ = std::clamp(3.0 / dims, 0.02, 0.5);
    }

    std::string name() const override { return "model"; }

    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        std::vector<Route> out;
        if (max_count == 0 || space_.dimensions() == 0) {
            if (max_count > 0 && !PointHistory(space_, history).contains(space_.baseline()))
                out.push_back(space_.route(space_.baseline()));
            return out;
        }
        PointHistory taken(space_, history);
        std::unordered_set<Point, PointHash> chosen;
        auto accept = [&](const Point& point) {
            if (taken.contains(point) || !chosen.insert(point).second) return false;
            out.push_back(space_.route(point));
            return true;
        };
        accept(space_.baseline());
        SearchRng start(options_.seed, 0x7470652d7374ULL);
        for (std::size_t i = 0; i < kStartup && out.size() < max_count; ++i) accept(sparse_draw(start));
        if (!out.empty()) return out;
        std::size_t ok = 0;
        for (const auto& entry : taken.finished) ok += entry.observation->status == Status::Ok;
        SearchRng rng(options_.seed, 0x747065ULL + taken.taken.size());
        if (ok < 2) {
            for (std::size_t i = 0; i < 64 * max_count && out.size() < max_count; ++i) accept(sparse_draw(rng));
            return out;
        }
        Densities dens = densities(taken);
        FeasibilityModel feasibility(space_, taken);
        Point incumbent = best_point(taken);
        std::vector<std::pair<double, Point>> scored;
        for (std::size_t i = 0; i < kCandidates; ++i) {
            Point point = i % 2 == 0 ? sample(dens.good, rng) : mutate(incumbent, dens.good, rng);
            if (taken.contains(point)) continue;
            scored.emplace_back(score(point, dens) + std::log(std::max(feasibility.route(point), 1e-12)), point);
        }
        std::stable_sort(scored.begin(), scored.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        for (const auto& [value, point] : scored) {
            if (out.size() >= max_count) break;
            accept(point);
        }
        for (std::size_t i = 0; i < 64 * max_count && out.size() < max_count; ++i) accept(sparse_draw(rng));
        return out;
    }

    std::string phase_of(const Route&, const SearchHistory& history) const override {
        return PointHistory(space_, history).taken.size() <= kStartup ? "model-start" : "model";
    }

private:
    using Density = std::vector<std::vector<double>>;  // [dim][choice] probabilities
    struct Densities {
        Density good, bad;
    };

    Point sparse_draw(SearchRng& rng) const {
        Point point = space_.baseline();
        for (std::size_t d = 0; d < point.size(); ++d)
            if (rng.unit() < change_rate_) point[d] = 1 + static_cast<std::uint32_t>(rng.below(space_.choices(d) - 1));
        if (SearchSpace::changes(point) == 0) {
            std::size_t d = rng.below(point.size());
            point[d] = 1 + static_cast<std::uint32_t>(rng.below(space_.choices(d) - 1));
        }
        return point;
    }

    Densities densities(const PointHistory& taken) const {
        std::vector<std::pair<double, const Point*>> ok;
        for (const auto& entry : taken.finished)
            if (entry.observation->status == Status::Ok) ok.emplace_back(entry.observation->median_s, &entry.point);
        std::stable_sort(ok.begin(), ok.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::size_t n_good = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(kGamma * ok.size())));
        Densities dens;
        for (Density* density : {&dens.good, &dens.bad}) {
            density->resize(space_.dimensions());
            for (std::size_t d = 0; d < space_.dimensions(); ++d) {
                std::uint32_t n = space_.choices(d);
                double nondefault = kPriorStrength * change_rate_;
                (*density)[d].assign(n, nondefault / (n - 1));
                (*density)[d][0] = kPriorStrength - nondefault;
            }
        }
        for (std::size_t i = 0; i < ok.size(); ++i) {
            Density& density = i < n_good ? dens.good : dens.bad;
            for (std::size_t d = 0; d < space_.dimensions(); ++d) density[d][(*ok[i].second)[d]] += 1.0;
        }
        for (Density* density : {&dens.good, &dens.bad})
            for (auto& row : *density) {
                double total = 0;
                for (double v : row) total += v;
                for (double& v : row) v /= total;
            }
        return dens;
    }

    static std::uint32_t draw_choice(const std::vector<double>& row, SearchRng& rng) {
        double u = rng.unit(), acc = 0;
        for (std::uint32_t c = 0; c < row.size(); ++c) {
            acc += row[c];
            if (u < acc) return c;
        }
        return static_cast<std::uint32_t>(row.size() - 1);
    }

    Point sample(const Density& good, SearchRng& rng) const {
        Point point(space_.dimensions());
        for (std::size_t d = 0; d < point.size(); ++d) point[d] = draw_choice(good[d], rng);
        return point;
    }

    Point mutate(Point point, const Density& good, SearchRng& rng) const {
        std::size_t count = 1 + rng.below(2);
        for (std::size_t k = 0; k < count; ++k) {
            std::size_t d = rng.below(point.size());
            std::uint32_t c = draw_choice(good[d], rng);
            if (c == point[d]) c = static_cast<std::uint32_t>(rng.below(space_.choices(d)));
            point[d] = c;
        }
        return point;
    }

    double score(const Point& point, const Densities& dens) const {
        double s = 0;
        for (std::size_t d = 0; d < point.size(); ++d) s += std::log(dens.good[d][point[d]] / dens.bad[d][point[d]]);
        return s;
    }

    Point best_point(const PointHistory& taken) const {
        const PointHistory::Entry* best = nullptr;
        for (const auto& entry : taken.finished)
            if (entry.observation->status == Status::Ok && (best == nullptr || entry.observation->median_s < best->observation->median_s))
                best = &entry;
        return best ? best->point : space_.baseline();
    }

    SearchSpace space_;
    StrategyOptions options_;
    double change_rate_ = 0.1;
};

}  // namespace

std::unique_ptr<Strategy> make_model_strategy(const Expression& expression, const StrategyOptions& options) {
    return std::make_unique<ModelStrategy>(expression, options);
}

}  // namespace routetune
