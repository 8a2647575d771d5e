// Iterated one-knob-at-a-time descent. Round one evaluates every single change of the
// baseline (what fast does); the search then moves to the fastest change that beats the
// current route with confidence and starts a new round there. Later rounds are pruned: they
// only retry the changes that were Ok and faster than their round's reference in the round
// before (a change that failed or slowed the route down once is not expected to help after
// one more knob moved), which keeps each round small. The search ends when no change of a
// round beats its reference. The walk is recomputed from the history at each call: rounds
// are replayed as long as their changes are all observed, and the first round with
// unobserved changes supplies the proposals, in knob then value order.
#include <limits>

#include "search/search_space.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

struct Change {
    std::size_t dim;
    std::uint32_t choice;
};

class GreedyStrategy : public Strategy {
public:
    GreedyStrategy(const Expression& expression, const StrategyOptions&) : space_(expression) {}

    std::string name() const override { return "greedy"; }

    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        std::vector<Route> out;
        if (max_count == 0) return out;
        PointHistory taken(space_, history);
        Point current = space_.baseline();
        if (!taken.contains(current)) return {space_.route(current)};
        std::vector<Change> changes;
        for (std::size_t d = 0; d < space_.dimensions(); ++d)
            for (std::uint32_t c = 1; c < space_.choices(d); ++c) changes.push_back({d, c});
        while (true) {
            const Observation* reference = taken.finished_observation(current);
            if (reference == nullptr || reference->status != Status::Ok) return out;
            std::vector<Change> promising;
            const Observation* best = nullptr;
            Point best_point;
            for (const Change& change : changes) {
                if (current[change.dim] == change.choice) continue;
                Point next = current;
                next[change.dim] = change.choice;
                if (!taken.contains(next)) {
                    out.push_back(space_.route(next));
                    if (out.size() == max_count) return out;
                    continue;
                }
                const Observation* obs = taken.finished_observation(next);
                if (obs == nullptr || obs->status != Status::Ok) continue;
                if (obs->median_s < reference->median_s) promising.push_back(change);
                if (history.beats(*obs, *reference) && (best == nullptr || obs->median_s < best->median_s)) {
                    best = obs;
                    best_point = next;
                }
            }
            if (!out.empty() || best == nullptr) return out;
            current = best_point;
            changes = std::move(promising);
        }
    }

    std::string phase_of(const Route& route, const SearchHistory& history) const override {
        (void)history;
        auto point = space_.point(route);
        return point && SearchSpace::changes(*point) <= 1 ? "greedy-1" : "greedy-n";
    }

private:
    SearchSpace space_;
};

}  // namespace

std::unique_ptr<Strategy> make_greedy_strategy(const Expression& expression, const StrategyOptions& options) {
    return std::make_unique<GreedyStrategy>(expression, options);
}

}  // namespace routetune
