// Adaptive group testing over the winner's changes (the knobs whose value differs from the
// baseline's), after Hwang's generalized binary splitting. With d changes that matter among
// n, a group of about n/d changes (a power of two) is put back to the baseline in one trial;
// when the judge finds the route without it no slower, the whole group goes; otherwise the
// group holds a change that matters, and halving it (the first half put back: no slower, so
// the change is in the second half; slower, so it is in the first, and the second goes back
// to the pool) isolates one such change in log2 of the group's size trials; it stays. d is
// not known: it is estimated from what was found so far, starting from one change that
// matters per sqrt(n). The whole costs about n / 2^a + d (a + 1) trials for groups of 2^a
// (about 200 for n = 900, d = 30), against about 2 d log2(n) for delta debugging in passes.
// Each removal is judged against the current route (the one it would replace), both measured
// afresh by the judge: a winner whose own measurement was lucky, or an earlier removal that
// cost a little, does not make every later removal look costly. Small losses that pass one
// by one could add up, so the result is checked against the winner itself at the end: when
// it is slower with confidence, the removal after which the route first became slower is
// found by bisection over the routes the search went through and put back, until the route
// is no longer slower (at most kRepairs groups); then the search runs again over the changes
// put back, now judging each removal against the winner, so that losses cannot add up again
// (when kRepairs groups did not cure it, the bisection was misled by noise and they are
// searched again against the current route, so that they do not stay for nothing). A fifth of
// the trials is kept back for that check, so that a minimization whose removals ran out of
// trials is checked as well (with a noisy judge, small losses pass one by one and, unchecked,
// left a modelled GCC winner at 0.74 of the optimum instead of 0.92); when the trials run out
// while the result is known to be slower (or before it was checked again after a put-back),
// the last route known not to be is the result (the winner at worst). A candidate that fails (a
// change needs another) costs time by definition; every decision is the judge's, so the
// result is a pure function of the inputs and the judge.
// With the study's history (change_blocks), the order of the work follows what a trial buys
// under its limit (a fifth of the study's builds, minimization_trials): a growing search's
// winner holds hundreds of changes in blocks (the values that joined it in one step); most
// blocks did not pay and most of those hold nothing that matters, so the blocks that did not
// pay are group-tested first, each block a unit, the least measured gain first: an empty
// block goes with others in one trial. Only then is each block kept cut down to the change
// that pays, largest first. (Cutting the paid blocks first, as before, spent a fifth of a
// modelled GCC study's builds on them and left 205-408 of 602-619 changes.)
#include "study/route_minimizer.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>

namespace routetune {

namespace {

constexpr int kRepairs = 8;
constexpr std::size_t kCheckShare = 5;  // a fifth of the trials is kept back for the check against the winner

Route without(const Route& route, const Route& baseline, const std::vector<std::string>& knobs) {
    Route out = route;
    for (const std::string& knob : knobs) {
        if (auto value = baseline.get(knob)) out.set(knob, *value);
        else out.erase(knob);
    }
    return out;
}

/// The changes of winner in no block, in winner's order, then the baseline's knobs winner changes.
std::vector<std::string> changes_outside(const Route& winner, const Route& baseline, const std::vector<ChangeBlock>& blocks) {
    std::vector<std::string> changes;
    auto changed = [&](const std::string& knob) { return winner.get(knob) != baseline.get(knob); };
    auto add = [&](const std::string& knob) {
        if (changed(knob) && std::find(changes.begin(), changes.end(), knob) == changes.end()) changes.push_back(knob);
    };
    for (const auto& block : blocks)
        for (const std::string& knob : block.knobs) changes.push_back(knob);
    for (const auto& [knob, value] : winner.assignments()) add(knob);
    for (const auto& [knob, value] : baseline.assignments()) add(knob);
    std::size_t in_blocks = 0;
    for (const auto& block : blocks) in_blocks += block.knobs.size();
    changes.erase(changes.begin(), changes.begin() + static_cast<std::ptrdiff_t>(in_blocks));
    return changes;
}

/// Hwang's group size for n changes left when d of them are thought to matter.
std::size_t group_size(std::size_t n, double d) {
    d = std::max(1.0, d);
    if (static_cast<double>(n) <= 2 * d - 2) return 1;
    double a = std::floor(std::log2((static_cast<double>(n) - d + 1) / d));
    auto size = static_cast<std::size_t>(std::exp2(std::max(0.0, a)));
    return std::clamp<std::size_t>(size, 1, n);
}

/// Changes that are removed together or not at all in group testing: one change, or a block.
using Unit = std::vector<std::string>;

/// The knobs of units, in order.
std::vector<std::string> knobs_of(const std::vector<Unit>& units) {
    std::vector<std::string> knobs;
    for (const Unit& unit : units) knobs.insert(knobs.end(), unit.begin(), unit.end());
    return knobs;
}

/// The state of one minimization: the route so far and what was removed, in order.
class Search {
public:
    Search(const Route& winner, const Route& baseline, const CostsTime& costs_time, std::size_t max_trials)
        : winner_(winner), baseline_(baseline), costs_time_(costs_time), max_trials_(max_trials),
          limit_(max_trials - max_trials / kCheckShare) {
        result_.route = winner;
    }

    /// Group testing over pool, whose units (a change, or a block of changes) are removed
    /// together or not at all; a unit found to cost time stays and, when kept is given, is
    /// appended to it. False when the trials ran out.
    bool run(std::deque<Unit> pool, std::vector<Unit>* kept = nullptr) {
        std::size_t total = pool.size(), found = 0, resolved = 0;
        while (!pool.empty()) {
            double rate = (static_cast<double>(found) + 1) / (static_cast<double>(resolved) + std::sqrt(static_cast<double>(total)));
            std::size_t size = group_size(pool.size(), rate * static_cast<double>(pool.size()));
            std::vector<Unit> group(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(size));
            pool.erase(pool.begin(), pool.begin() + static_cast<std::ptrdiff_t>(size));
            auto gone = try_removing(knobs_of(group));
            if (!gone) return false;
            if (*gone) {
                resolved += size;
                continue;
            }
            while (group.size() > 1) {
                auto middle = group.begin() + static_cast<std::ptrdiff_t>((group.size() + 1) / 2);
                std::vector<Unit> first(group.begin(), middle), second(middle, group.end());
                if (!(gone = try_removing(knobs_of(first)))) return false;
                if (*gone) {
                    resolved += first.size();
                    group = std::move(second);
                } else {
                    pool.insert(pool.begin(), second.begin(), second.end());
                    group = std::move(first);
                }
            }
            if (kept) kept->push_back(group.front());
            ++found;
            ++resolved;
        }
        return true;
    }

    /// Guided by blocks: the blocks that did not pay are group-tested as units (the least gain
    /// first: most of them hold nothing that matters), so that those which hold nothing go
    /// many at a time; then each block kept (those that paid, and those found to cost time),
    /// largest first, is cut in halves down to one change (a block that paid keeps it without a
    /// trial, one that did not is tried without it too), and the halves left aside go in one
    /// trial; what costs time in that trial is group-tested with rest at the end. False when
    /// the trials ran out.
    bool run_blocks(const std::vector<ChangeBlock>& blocks, const std::vector<std::string>& rest) {
        std::vector<const ChangeBlock*> unpaid, kept_blocks;
        for (const auto& block : blocks) (block.paid ? kept_blocks : unpaid).push_back(&block);
        std::stable_sort(unpaid.begin(), unpaid.end(), [](const auto* a, const auto* b) { return a->gain < b->gain; });
        std::deque<Unit> units;
        for (const auto* block : unpaid) units.push_back(block->knobs);
        std::vector<Unit> kept;
        if (!run(std::move(units), &kept)) return false;
        for (const Unit& unit : kept)
            for (const auto* block : unpaid)
                if (block->knobs == unit) kept_blocks.push_back(block);
        std::stable_sort(kept_blocks.begin(), kept_blocks.end(),
                         [](const auto* a, const auto* b) { return a->knobs.size() > b->knobs.size(); });
        std::vector<std::string> aside;
        for (const auto* block : kept_blocks) {
            std::vector<std::string> group = block->knobs;
            while (group.size() > 1) {
                auto middle = group.begin() + static_cast<std::ptrdiff_t>((group.size() + 1) / 2);
                std::vector<std::string> first(group.begin(), middle), second(middle, group.end());
                auto gone = try_removing(first);
                if (!gone) return false;
                if (*gone) {
                    group = std::move(second);
                } else {
                    aside.insert(aside.end(), second.begin(), second.end());
                    group = std::move(first);
                }
            }
            if (!block->paid && block->knobs.size() > 1 && !try_removing(group)) return false;
        }
        std::deque<Unit> pool;
        if (!aside.empty()) {
            auto gone = try_removing(aside);
            if (!gone) return false;
            if (!*gone)
                for (const std::string& knob : aside) pool.push_back({knob});
        }
        for (const std::string& knob : rest) pool.push_back({knob});
        return run(std::move(pool));
    }

    /// Checks the route against the winner, with every trial left (those kept back included);
    /// while it is slower, puts back the group after whose removal it first became slower; once
    /// it is not, searches the groups put back again, judged against the winner (when kRepairs
    /// groups did not make it so, they were not what it lacked: they are searched again as
    /// before). When the trials run out while the route is known to be slower, or before it was
    /// checked again after a put-back, it goes back to the last route of its removals known not
    /// to be (the winner at worst).
    void repair() {
        limit_ = max_trials_;
        std::deque<Unit> put_back;
        bool cured = false;
        std::optional<std::size_t> known_good;  // removals after which the route was last found not slower
        auto fall_back = [&] {
            if (!known_good) return;  // the route was never found slower: it stands as it is
            log_.resize(*known_good);
            result_.route = after(*known_good);
        };
        for (int round = 0; round < kRepairs && !log_.empty(); ++round) {
            auto slower = judge(winner_, result_.route);
            if (!slower) return fall_back();
            cured = !*slower;
            if (!*slower) break;
            std::size_t good = 0, bad = log_.size();  // routes after `good` removals: not slower; after `bad`: slower
            known_good = good;
            while (bad - good > 1) {
                std::size_t middle = (good + bad) / 2;
                if (!(slower = judge(winner_, after(middle)))) return fall_back();
                (*slower ? bad : good) = middle;
                known_good = good;
            }
            for (const std::string& knob : log_[bad - 1]) {
                if (auto value = winner_.get(knob)) result_.route.set(knob, *value);
                else result_.route.erase(knob);
                put_back.push_back({knob});
            }
            log_.erase(log_.begin() + static_cast<std::ptrdiff_t>(bad - 1));
        }
        against_winner_ = cured;
        run(std::move(put_back));
    }

    /// The result, its removals in the order they were made.
    MinimizedRoute take() {
        result_.removed.clear();
        for (const auto& group : log_) result_.removed.insert(result_.removed.end(), group.begin(), group.end());
        return std::move(result_);
    }

private:
    std::optional<bool> judge(const Route& reference, const Route& candidate) {
        if (result_.trials >= limit_) {
            result_.cut_short = true;
            return std::nullopt;
        }
        ++result_.trials;
        return costs_time_(reference, candidate);
    }

    /// Whether group could go (then it is gone); nullopt when the trials ran out.
    std::optional<bool> try_removing(const std::vector<std::string>& group) {
        Route candidate = without(result_.route, baseline_, group);
        auto slower = judge(against_winner_ ? winner_ : result_.route, candidate);
        if (!slower) return std::nullopt;
        if (*slower) return false;
        result_.route = std::move(candidate);
        log_.push_back(group);
        return true;
    }

    /// The winner without the first `removals` groups of the log.
    Route after(std::size_t removals) const {
        Route route = winner_;
        for (std::size_t i = 0; i < removals; ++i) route = without(route, baseline_, log_[i]);
        return route;
    }

    const Route& winner_;
    const Route& baseline_;
    const CostsTime& costs_time_;
    std::size_t max_trials_;
    std::size_t limit_;  // the trials the removals may spend: a share is kept back for the check
    MinimizedRoute result_;
    std::vector<std::vector<std::string>> log_;  // the groups removed, in order
    bool against_winner_ = false;                 // after a repair: judge against the winner
};

}  // namespace

std::size_t minimization_trials(std::size_t changes, std::size_t study_builds) {
    constexpr std::size_t kFewestTrials = 16;
    return std::min(2 * changes + 8, std::max(kFewestTrials, study_builds / 5));
}

MinimizedRoute minimize_route(const Route& winner, const Route& baseline, const std::vector<ChangeBlock>& blocks,
                              const CostsTime& costs_time, std::size_t max_trials) {
    Search search(winner, baseline, costs_time, max_trials);
    search.run_blocks(blocks, changes_outside(winner, baseline, blocks));
    search.repair();
    return search.take();
}

}  // namespace routetune
