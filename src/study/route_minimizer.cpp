// ddmin over the winner's changes (the knobs whose value differs from the baseline's): split
// the remaining changes into n chunks in the given order, try putting each chunk back to the
// baseline; the first removal that the judge accepts is kept and the search restarts with n
// - 1 chunks (at least 2); when no chunk can go, n doubles, until the chunks are single
// changes that all stay. Every candidate is judged against the winner itself, not against
// the route of the previous step, so removals that each cost a little within the noise
// cannot add up to a large loss: a candidate that is slower than the winner with confidence
// is refused however it was reached. A candidate that fails (a change needs another) costs
// time by definition.
#include "study/route_minimizer.hpp"

#include <algorithm>

namespace routetune {

namespace {

Route without(const Route& route, const Route& baseline, const std::vector<std::string>& knobs) {
    Route out = route;
    for (const std::string& knob : knobs) {
        if (auto value = baseline.get(knob)) out.set(knob, *value);
        else out.erase(knob);
    }
    return out;
}

std::vector<std::string> changes_of(const Route& winner, const Route& baseline, const std::vector<std::string>& order) {
    std::vector<std::string> changes;
    auto changed = [&](const std::string& knob) { return winner.get(knob) && winner.get(knob) != baseline.get(knob); };
    for (const std::string& knob : order)
        if (changed(knob) && std::find(changes.begin(), changes.end(), knob) == changes.end()) changes.push_back(knob);
    for (const auto& [knob, value] : winner.assignments())
        if (changed(knob) && std::find(changes.begin(), changes.end(), knob) == changes.end()) changes.push_back(knob);
    for (const auto& [knob, value] : baseline.assignments())
        if (!winner.get(knob) && std::find(changes.begin(), changes.end(), knob) == changes.end()) changes.push_back(knob);
    return changes;
}

}  // namespace

MinimizedRoute minimize_route(const Route& winner, const Route& baseline, const std::vector<std::string>& order,
                              const CostsTime& costs_time, std::size_t max_trials) {
    MinimizedRoute result;
    result.route = winner;
    std::vector<std::string> changes = changes_of(winner, baseline, order);
    std::size_t n = 2;
    while (!changes.empty()) {
        n = std::min(n, changes.size());
        std::size_t size = (changes.size() + n - 1) / n;
        bool removed = false;
        for (std::size_t start = 0; start < changes.size() && !removed; start += size) {
            if (result.trials == max_trials) {
                result.cut_short = true;
                return result;
            }
            std::vector<std::string> chunk(changes.begin() + static_cast<std::ptrdiff_t>(start),
                                           changes.begin() + static_cast<std::ptrdiff_t>(std::min(start + size, changes.size())));
            Route candidate = without(result.route, baseline, chunk);
            ++result.trials;
            if (costs_time(winner, candidate)) continue;
            result.route = candidate;
            result.removed.insert(result.removed.end(), chunk.begin(), chunk.end());
            changes.erase(changes.begin() + static_cast<std::ptrdiff_t>(start),
                          changes.begin() + static_cast<std::ptrdiff_t>(start + chunk.size()));
            removed = true;
        }
        if (removed) n = std::max<std::size_t>(n - 1, 2);
        else if (n >= changes.size()) break;
        else n = std::min(2 * n, changes.size());
    }
    return result;
}

}  // namespace routetune
