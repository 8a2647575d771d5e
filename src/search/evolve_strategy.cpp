// A generational evolutionary search. Generation 0 is the baseline and sparse mutants of it
// (one to three knobs changed: dense random routes mostly fail in large spaces). Each later
// generation is bred from the best routes observed so far in earlier generations (fitness:
// the median time of Ok routes; failures rank last): two parents by binary tournament,
// uniform crossover where they differ, then with probability one half a mutation of one or
// two knobs. Children already generated are redrawn. Generation g's draws come from
// (seed, g), and a generation is bred only once every member of the previous ones is
// observed, looking fitness up by route; so replaying a history rebuilds the same
// generations, which is how --continue resumes the search.
#include <algorithm>
#include <limits>
#include <unordered_set>

#include "search/search_rng.hpp"
#include "search/search_space.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

constexpr std::size_t kPopulation = 16;
constexpr std::size_t kRedraws = 50;

class EvolveStrategy : public Strategy {
public:
    EvolveStrategy(const Expression& expression, const StrategyOptions& options)
        : space_(expression), options_(options) {}

    std::string name() const override { return "evolve"; }

    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        std::vector<Route> out;
        if (max_count == 0) return out;
        PointHistory taken(space_, history);
        std::unordered_set<Point, PointHash> generated;
        std::vector<Point> members;  // every generated point, in generation order
        for (std::uint64_t generation = 0;; ++generation) {
            std::vector<Point> children = breed(generation, members, taken, generated);
            if (children.empty()) return out;
            for (const Point& child : children) {
                members.push_back(child);
                if (!taken.contains(child) && out.size() < max_count) out.push_back(space_.route(child));
            }
            if (!out.empty()) return out;
        }
    }

    std::string phase_of(const Route&, const SearchHistory&) const override { return "evolve"; }

private:
    std::vector<Point> breed(std::uint64_t generation, const std::vector<Point>& members,
                             const PointHistory& taken, std::unordered_set<Point, PointHash>& generated) const {
        SearchRng rng(options_.seed, 0x65766f6c7665ULL + generation);
        std::vector<Point> children;
        auto add = [&](Point point) {
            if (!generated.insert(point).second) return false;
            children.push_back(std::move(point));
            return true;
        };
        if (space_.dimensions() == 0) {
            if (generation == 0) add(space_.baseline());
            return children;
        }
        if (generation == 0) {
            add(space_.baseline());
            for (std::size_t i = 0; i < kPopulation * kRedraws && children.size() < kPopulation; ++i)
                add(space_.mutate(space_.baseline(), rng, 1 + rng.below(3)));
            return children;
        }
        std::vector<std::pair<double, const Point*>> ranked;
        for (const Point& member : members) {
            const Observation* obs = taken.finished_observation(member);
            double fitness = obs && obs->status == Status::Ok ? obs->median_s : std::numeric_limits<double>::infinity();
            ranked.emplace_back(fitness, &member);
        }
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        if (ranked.size() > kPopulation) ranked.resize(kPopulation);
        auto tournament = [&]() -> const Point& {
            std::size_t a = rng.below(ranked.size()), b = rng.below(ranked.size());
            return *ranked[std::min(a, b)].second;
        };
        for (std::size_t attempt = 0; attempt < kPopulation * kRedraws && children.size() < kPopulation; ++attempt) {
            const Point& mother = tournament();
            const Point& father = tournament();
            Point child = mother;
            for (std::size_t d = 0; d < child.size(); ++d)
                if (mother[d] != father[d] && rng.below(2) == 1) child[d] = father[d];
            if (rng.below(2) == 1 || child == mother || child == father) child = space_.mutate(std::move(child), rng, 1 + rng.below(2));
            add(std::move(child));
        }
        return children;
    }

    SearchSpace space_;
    StrategyOptions options_;
};

}  // namespace

std::unique_ptr<Strategy> make_evolve_strategy(const Expression& expression, const StrategyOptions& options) {
    return std::make_unique<EvolveStrategy>(expression, options);
}

}  // namespace routetune
