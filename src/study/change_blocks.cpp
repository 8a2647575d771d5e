// The chain is found by dynamic programming over the Ok observations, each seen through the
// changes it shares with the winner (a route may also set values the winner does not, as an
// incumbent does before a later swap; of routes sharing the same changes, the one setting the
// fewest others stands for them): the longest sequence in which each route shares every
// change the one before shares, and more (its first link is the baseline's observation when
// the history has one). A step's gain compares the two search measurements of its ends,
// so it is as noisy as they are: it guides the minimization (which blocks it tries to remove
// at once, which it cuts in halves), and every removal is still judged afresh.
#include "study/change_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace routetune {

namespace {

/// The knobs of route that hold winner's value (changes of winner that route shares).
std::set<std::string> shared(const Route& route, const Route& winner) {
    std::set<std::string> knobs;
    for (const auto& [knob, value] : route.assignments())
        if (winner.get(knob) == value) knobs.insert(knob);
    return knobs;
}

struct Link {
    const Observation* obs;
    std::set<std::string> shared;  // with the winner
    std::size_t other = 0;         // values it sets that the winner does not
};

/// The longest chain of links (sorted by shared size) whose shared sets strictly grow, as indices.
std::vector<std::size_t> longest_chain(const std::vector<Link>& links) {
    std::vector<std::size_t> length(links.size(), 1), previous(links.size(), links.size());
    for (std::size_t i = 0; i < links.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (length[j] + 1 > length[i] && links[j].shared.size() < links[i].shared.size() &&
                std::includes(links[i].shared.begin(), links[i].shared.end(), links[j].shared.begin(), links[j].shared.end()))
                length[i] = length[j] + 1, previous[i] = j;
    std::vector<std::size_t> chain;
    if (links.empty()) return chain;
    std::size_t end = static_cast<std::size_t>(std::max_element(length.begin(), length.end()) - length.begin());
    for (std::size_t i = end; i != links.size(); i = previous[i]) chain.push_back(i);
    std::reverse(chain.begin(), chain.end());
    return chain;
}

}  // namespace

std::vector<ChangeBlock> change_blocks(const Route& winner, const Route& baseline, const std::vector<Observation>& history) {
    std::map<std::set<std::string>, Link> best;  // per shared set: the link that sets the fewest other values
    for (const auto& obs : history) {
        if (obs.status != Status::Ok || obs.median_s <= 0) continue;
        Link link{&obs, shared(obs.route, winner)};
        link.other = obs.route.assignments().size() - link.shared.size();
        auto [it, fresh] = best.emplace(link.shared, link);
        if (!fresh && link.other < it->second.other) it->second = link;
    }
    std::vector<Link> links;
    for (auto& [knobs, link] : best) links.push_back(std::move(link));
    std::stable_sort(links.begin(), links.end(), [](const Link& a, const Link& b) { return a.shared.size() < b.shared.size(); });
    std::vector<std::size_t> chain = longest_chain(links);
    std::vector<std::string> changes;
    auto add = [&](const std::string& knob) {
        if (winner.get(knob) != baseline.get(knob) && std::find(changes.begin(), changes.end(), knob) == changes.end())
            changes.push_back(knob);
    };
    for (const auto& [knob, value] : winner.assignments()) add(knob);
    for (const auto& [knob, value] : baseline.assignments()) add(knob);
    std::vector<ChangeBlock> blocks(chain.size());
    SearchHistory judge;
    judge.min_gain = 0;
    for (std::size_t i = 1; i < chain.size(); ++i) {
        const Observation &before = *links[chain[i - 1]].obs, &after = *links[chain[i]].obs;
        blocks[i].gain = std::log(before.median_s / after.median_s);
        blocks[i].paid = judge.beats(after, before);
    }
    std::vector<ChangeBlock> singles;
    for (const std::string& knob : changes) {
        std::size_t at = chain.size();
        for (std::size_t i = 0; i < chain.size() && at == chain.size(); ++i)
            if (links[chain[i]].shared.count(knob)) at = i;
        if (at == 0 || at == chain.size()) singles.push_back({{knob}, std::numeric_limits<double>::infinity(), true});
        else blocks[at].knobs.push_back(knob);
    }
    std::erase_if(blocks, [](const ChangeBlock& block) { return block.knobs.empty(); });
    blocks.insert(blocks.end(), singles.begin(), singles.end());
    std::stable_sort(blocks.begin(), blocks.end(), [](const ChangeBlock& a, const ChangeBlock& b) {
        return a.paid != b.paid ? !a.paid : a.gain < b.gain;
    });
    return blocks;
}

}  // namespace routetune
