// Delta debugging over the winner's changes (the knobs whose value differs from the
// baseline's), in passes: split the remaining changes into chunks in the given order (two in
// the first pass), try putting each chunk back to the baseline in turn, keep every removal the
// judge accepts and go on with the next chunk (a chunk that stayed is not retried in the same
// pass, so a pass costs one trial per chunk); each pass halves the chunks, until a pass of
// single changes removes nothing. With k changes that matter among N, a pass keeps at most k
// chunks, so the whole costs about 2k log2(N) trials, not one per change. Every candidate is judged against the winner itself, not against
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
    for (std::size_t n = 2; !changes.empty();) {
        std::size_t size = (changes.size() + std::min(n, changes.size()) - 1) / std::min(n, changes.size());
        bool removed = false;
        for (std::size_t start = 0; start < changes.size();) {
            if (result.trials == max_trials) {
                result.cut_short = true;
                return result;
            }
            auto first = changes.begin() + static_cast<std::ptrdiff_t>(start);
            auto last = changes.begin() + static_cast<std::ptrdiff_t>(std::min(start + size, changes.size()));
            std::vector<std::string> chunk(first, last);
            Route candidate = without(result.route, baseline, chunk);
            ++result.trials;
            if (costs_time(winner, candidate)) {
                start += size;
                continue;
            }
            result.route = candidate;
            result.removed.insert(result.removed.end(), chunk.begin(), chunk.end());
            changes.erase(first, last);
            removed = true;
        }
        if (size == 1 && !removed) break;
        if (size > 1) n = 2 * n;
    }
    return result;
}

}  // namespace routetune
