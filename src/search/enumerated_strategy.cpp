// The fast and full strategies: both replay the lazy expansion of the expression in its own
// order and skip every route already observed (or equivalent to an observed one, e.g. a full
// route that spells out a default value). They keep no state, so --continue resumes them.
#include "search/enumerated_strategy.hpp"

#include <unordered_set>

#include "search/strategies.hpp"

namespace routetune {

bool route_taken(const SearchSpace& space, const PointHistory& taken, const SearchHistory& history,
                 const Route& route) {
    if (auto point = space.point(route)) return taken.contains(*point);
    return history.find(route) != nullptr;
}

std::vector<Route> untaken_expansion(const Expression& expression, ExpansionMode mode,
                                     const SearchSpace& space, const SearchHistory& history,
                                     std::size_t max_count) {
    std::vector<Route> out;
    if (max_count == 0) return out;
    PointHistory taken(space, history);
    std::unordered_set<Point, PointHash> chosen;
    auto stream = expand(expression, mode);
    while (auto route = stream->next()) {
        if (route_taken(space, taken, history, *route)) continue;
        if (auto point = space.point(*route); point && !chosen.insert(*point).second) continue;
        out.push_back(std::move(*route));
        if (out.size() == max_count) break;
    }
    return out;
}

namespace {

class EnumeratedStrategy : public Strategy {
public:
    EnumeratedStrategy(const Expression& expression, ExpansionMode mode, std::string name)
        : expression_(expression), space_(expression), mode_(mode), name_(std::move(name)) {}
    std::string name() const override { return name_; }
    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        return untaken_expansion(expression_, mode_, space_, history, max_count);
    }
    std::string phase_of(const Route&, const SearchHistory&) const override { return name_; }

private:
    Expression expression_;
    SearchSpace space_;
    ExpansionMode mode_;
    std::string name_;
};

}  // namespace

std::unique_ptr<Strategy> make_fast_strategy(const Expression& expression, const StrategyOptions&) {
    return std::make_unique<EnumeratedStrategy>(expression, ExpansionMode::Fast, "fast");
}

std::unique_ptr<Strategy> make_full_strategy(const Expression& expression, const StrategyOptions&) {
    return std::make_unique<EnumeratedStrategy>(expression, ExpansionMode::Full, "full");
}

}  // namespace routetune
