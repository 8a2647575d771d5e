// auto, the default for large spaces. Why it works this way: fast spends one build per knob
// value, so any plan that screens knobs one at a time cannot finish in a fraction of fast's
// builds. In practice a few knob values carry nearly all of the gain (and their interactions
// matter), a few slow the workload down, and a few break the build or the accuracy. So auto
// (1) builds the baseline; (2) screens the few values of the knobs known to dominate
// (optimisation level) one at a time, since their large effects would mask everything else
// in a group, and waits for them; (3) takes the fastest of those routes as its anchor and
// screens everything else *on top of it*, because what helps at -O3 is not what helps at -O2
// (at -O2 the vectoriser's cost model is worth 2.8x on matmul; at -O3 it is already on):
// a dominant knob with many values (-march, -mtune: dozens of CPUs) gets a sample of them,
// `native` first, one at a time; all other knobs are cut into groups of about sqrt(knobs)
// (at most 12) after a seeded shuffle, each knob set to one random value other than the
// anchor's, so one build tests many values; (4) then searches model-guided, one proposal per
// observation: an additive Bayesian model of log time over knob values with an adaptive
// sparsity prior (AdditiveModel) and a group-testing feasibility model (FeasibilityModel)
// are fitted to all finished evaluations. The best route so far first takes every change the
// model is confident about (posterior mean gain of 0.5% or more, P(feasible) of 0.9 or more,
// largest gain first, at most eight, while they together build with P of 0.6 or more): this
// is how the values of several good groups are combined at once. The feasibility model
// blames a failure on the changes made to the best route, which is known to build. Then a
// posterior draw of the effects (Thompson sampling: exploration where the model is unsure)
// adds at most four more changes, greedily while P(feasible) x predicted gain - P(failure) x
// the cost of a wasted build grows; half of the draws start from the best route itself. When the
// draws only repeat observed routes, random neighbours of the best route that the
// feasibility model does not rule out are tried. Each failure at the end of the history halves
// both limits (8 and 4 changes; three halvings at most), so a failing combination is cut down
// to the change that breaks it within a few builds (group testing: a failure of the incumbent
// plus one change blames that change outright), instead of being retried in ever new company
// (without the halving, a live `*=~` study failed 287 builds in a row on one conflict).
// In spaces of 400 knobs or more (kGrowFrom) the groups of step (3) are replaced by value sweeps and growth.
// A knob of many values (5-16 integers, or 12-24 names) is swept, one value at a time on the
// anchor (ValueSweep), and set to its best value; then growth (GrowthSearch):
// the incumbent takes every value that builds and does not cost time, group by group, and a
// group that fails or is slower is halved until its culprit is alone, so that values that pay
// only together (pairs, triples) meet in one route; a screening group holds a given pair with a
// probability of about (group / knobs)^2. While growth has nothing to propose but builds are in
// flight (its groups, or the second stage it starts from), auto waits for them; the model phase
// starts when growth is done. Growth
// makes winners large; `tune --minimize` shrinks them afterwards.
// Small spaces (32 points or fewer) are enumerated. The anchor is a function of the first
// stage's results and the draws are seeded by (seed, observations so far), so --continue
// replays them.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_set>

#include "search/additive_model.hpp"
#include "search/feasibility_model.hpp"
#include "search/growth_search.hpp"
#include "search/value_sweep.hpp"
#include "search/search_rng.hpp"
#include "search/search_space.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

constexpr std::uint64_t kEnumerateBelow = 32;
constexpr std::size_t kMaxChanges = 4;          // a posterior draw adds at most this many changes
constexpr std::size_t kMaxExploitChanges = 8;   // the confident changes taken at once, at most
constexpr std::size_t kDraws = 16;
constexpr double kConfidentGain = 0.005;     // exploit: predicted gain of at least 0.5%
constexpr double kConfidentFeasible = 0.9;  // and P(feasible) of at least 0.9
constexpr double kExploitFeasible = 0.6;    // the confident changes together: P(feasible) of at least 0.6
constexpr double kPriorSd = 0.05;           // prior sd of a value's log effect
constexpr double kFailureCost = 0.02;  // a failed build, in log time: what a 2% gain is worth
constexpr const char* kDominant[] = {"-O", "-march", "-mtune", "-mcpu", "-opt-level", "-builderOptimizationLevel"};
constexpr std::uint32_t kScreenAllBelow = 10;  // a dominant knob with fewer choices is screened whole first
constexpr std::uint32_t kDominantSample = 6;   // else this many of its values, on the anchor
constexpr std::size_t kGrowFrom = 400;      // spaces of this many knobs or more are grown, not grouped

class AutoStrategy : public Strategy {
public:
    AutoStrategy(const Expression& expression, const StrategyOptions& options)
        : space_(expression), options_(options), sweep_(space_, dominant_dims(), wide()),
          growth_(space_, growable_dims(), options.seed) {
        BigCount size = space_.size();
        if (size.fits_u64() && size.to_u64() <= kEnumerateBelow) enumerate_ = size.to_u64();
        first_stage_ = first_stage_points();
    }

    std::string name() const override { return "auto"; }

    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        std::vector<Route> out;
        PointHistory taken(space_, history);
        std::unordered_set<Point, PointHash> chosen;
        auto accept = [&](const Point& point) {
            if (out.size() >= max_count || taken.contains(point) || !chosen.insert(point).second) return false;
            out.push_back(space_.route(point));
            return true;
        };
        accept(space_.baseline());
        if (enumerate_ != 0) {
            for (std::uint64_t i = 0; i < enumerate_; ++i) accept(space_.decode(i));
            return out;
        }
        for (const Point& point : first_stage_) accept(point);
        if (!out.empty()) return out;
        auto anchor = first_stage_anchor(taken);
        if (!anchor) return out;  // a first-stage route is still being measured
        for (const Point& point : second_stage_points(*anchor)) accept(point);
        for (const Point& point : sweep_.points(*anchor)) accept(point);
        if (!out.empty()) return out;
        if (wide()) {
            std::vector<Point> build;
            auto start = growth_start(taken, *anchor, build);
            for (const Point& point : build) accept(point);
            if (start)
                for (const Point& point : growth_.propose(taken, *start, max_count)) accept(point);
            if (!out.empty() || pending(taken)) return out;  // growth waits for its builds in flight
        }
        const Observation* reference = taken.finished_observation(space_.baseline());
        if (reference == nullptr || reference->status != Status::Ok || reference->median_s <= 0) return out;
        AdditiveModel model(space_, taken, reference->median_s, kPriorSd);
        Point incumbent = best_point(taken);
        FeasibilityModel feasibility(space_, taken, 0.1, &incumbent);
        std::size_t halvings = std::min<std::size_t>(trailing_failures(taken), 3);
        Effects mean = model.mean();
        SearchRng rng(options_.seed, 0x6175746fULL + taken.taken.size());
        for (std::size_t slot = out.size(); slot < max_count; ++slot) {
            bool found = false;
            Point start = exploit(incumbent, mean, feasibility, kMaxExploitChanges >> halvings);
            for (std::size_t draw = 0; draw < kDraws && !found; ++draw)
                found = accept(construct(draw < kDraws / 2 ? start : incumbent, model.sample(rng), feasibility,
                                         std::max<std::size_t>(1, kMaxChanges >> halvings)));
            double floor = 0.5 * feasibility.route(incumbent);
            for (std::size_t i = 0; i < 512 && !found; ++i) {
                Point point = space_.mutate(incumbent, rng, 1 + i / 64);
                if (i < 384 && feasibility.route(point) < floor) continue;
                found = accept(point);
            }
            if (!found) break;
        }
        return out;
    }

    bool sequential() const override { return wide(); }

    std::string phase_of(const Route& route, const SearchHistory& history) const override {
        auto point = space_.point(route);
        if (enumerate_ != 0) return "auto-all";
        if (!point) return "auto-model";
        if (SearchSpace::changes(*point) == 0 || contains(first_stage_, *point)) return "auto-screen";
        auto anchor = first_stage_anchor(PointHistory(space_, history));
        if (anchor && (contains(second_stage_points(*anchor), *point) || contains(sweep_.points(*anchor), *point)))
            return "auto-screen";
        return "auto-model";
    }

private:
    static bool contains(const std::vector<Point>& points, const Point& point) {
        return std::find(points.begin(), points.end(), point) != points.end();
    }

    bool wide() const { return space_.dimensions() >= kGrowFrom; }

    /// The dominant knobs.
    std::vector<std::size_t> dominant_dims() const {
        std::vector<std::size_t> dims;
        for (std::size_t d = 0; d < space_.dimensions(); ++d)
            if (dominant(d)) dims.push_back(d);
        return dims;
    }

    /// The knobs growth may change: all but the dominant and the swept ones, in wide spaces only.
    std::vector<std::size_t> growable_dims() const {
        std::vector<std::size_t> dims;
        if (!wide()) return dims;
        const auto& swept = sweep_.dims();
        for (std::size_t d = 0; d < space_.dimensions(); ++d)
            if (!dominant(d) && std::find(swept.begin(), swept.end(), d) == swept.end()) dims.push_back(d);
        return dims;
    }

    /// Where growth starts: the anchor with each sampled dominant knob at its fastest sampled
    /// value and each swept knob at its best value; nullopt while one of them is pending (that
    /// combination, when never built, is appended to build). If the combination fails or
    /// measures slower than the fastest of the second stage alone (an Ok one), that route: the dominant
    /// knobs interact (GCC's -mtune=broadwell, 4% faster alone at -Ofast, made
    /// -march=cascadelake's route 22% slower on the stencil), and growth never changes them.
    std::optional<Point> growth_start(const PointHistory& taken, const Point& anchor, std::vector<Point>& build) const {
        auto fastest = fastest_second_stage(taken, anchor);
        if (!fastest) return std::nullopt;
        auto swept = sweep_.apply(taken, anchor, best_of_each_dominant(taken, anchor));
        if (!swept || *swept == *fastest) return swept;
        if (!taken.contains(*swept)) {
            build.push_back(*swept);
            return std::nullopt;
        }
        const Observation* obs = taken.finished_observation(*swept);
        if (obs == nullptr) return std::nullopt;
        const Observation* alone = taken.finished_observation(*fastest);
        bool slower_than_alone = alone->status == Status::Ok && obs->median_s > alone->median_s;
        return obs->status == Status::Ok && obs->median_s > 0 && !slower_than_alone ? swept : fastest;
    }

    /// anchor with each dominant knob of the second stage at its fastest Ok sample, where that
    /// is faster than the anchor (call once every second-stage point is finished).
    Point best_of_each_dominant(const PointHistory& taken, const Point& anchor) const {
        Point best = anchor;
        const Observation* own = taken.finished_observation(anchor);
        bool ok = own->status == Status::Ok && own->median_s > 0;
        std::vector<double> fastest(space_.dimensions(), ok ? own->median_s : std::numeric_limits<double>::infinity());
        for (const Point& point : second_stage_points(anchor)) {
            const Observation* obs = taken.finished_observation(point);
            if (obs->status != Status::Ok || obs->median_s <= 0) continue;
            for (std::size_t d = 0; d < point.size(); ++d)
                if (point[d] != anchor[d] && obs->median_s < fastest[d]) fastest[d] = obs->median_s, best[d] = point[d];
        }
        return best;
    }

    /// The fastest Ok route of the anchor and the second stage once all of them are finished;
    /// nullopt while one is pending.
    std::optional<Point> fastest_second_stage(const PointHistory& taken, const Point& anchor) const {
        Point start = anchor;
        const Observation* best = taken.finished_observation(anchor);
        if (best == nullptr) return std::nullopt;
        for (const Point& point : second_stage_points(anchor)) {
            const Observation* obs = taken.finished_observation(point);
            if (obs == nullptr) return std::nullopt;
            if (obs->status == Status::Ok && (best->status != Status::Ok || obs->median_s < best->median_s))
                best = obs, start = point;
        }
        if (best->status != Status::Ok || best->median_s <= 0) return std::nullopt;
        return start;
    }

    bool dominant(std::size_t d) const {
        return std::find(std::begin(kDominant), std::end(kDominant), space_.knob(d)) != std::end(kDominant);
    }

    /// Each value of each dominant knob with few values, on the baseline.
    std::vector<Point> first_stage_points() const {
        std::vector<Point> points;
        for (std::size_t d = 0; d < space_.dimensions(); ++d) {
            if (!dominant(d) || space_.choices(d) >= kScreenAllBelow) continue;
            for (std::uint32_t c = 1; c < space_.choices(d); ++c) {
                Point point = space_.baseline();
                point[d] = c;
                points.push_back(point);
            }
        }
        return points;
    }

    /// The fastest Ok route of the baseline and the first stage once all of them are finished;
    /// nullopt while one is pending or unproposed.
    std::optional<Point> first_stage_anchor(const PointHistory& taken) const {
        Point anchor = space_.baseline();
        const Observation* best = taken.finished_observation(anchor);
        if (best == nullptr) return std::nullopt;
        for (const Point& point : first_stage_) {
            const Observation* obs = taken.finished_observation(point);
            if (obs == nullptr) return std::nullopt;
            if (obs->status == Status::Ok && (best->status != Status::Ok || obs->median_s < best->median_s)) {
                best = obs;
                anchor = point;
            }
        }
        return anchor;
    }

    /// On the anchor: a sample of each many-valued dominant knob's values (`native` first),
    /// one at a time; then every other knob in seeded random groups, each set to a random
    /// value other than the anchor's.
    std::vector<Point> second_stage_points(const Point& anchor) const {
        std::vector<Point> points;
        std::vector<std::size_t> grouped;
        SearchRng rng(options_.seed, 0x73637265656eULL);
        for (std::size_t d = 0; d < space_.dimensions(); ++d) {
            if (!dominant(d)) {
                grouped.push_back(d);
                continue;
            }
            if (space_.choices(d) < kScreenAllBelow) continue;
            for (std::uint32_t c : dominant_sample(d, anchor[d], rng)) {
                Point point = anchor;
                point[d] = c;
                points.push_back(point);
            }
        }
        if (wide()) return points;  // growth tests the other knobs
        std::size_t group = group_size();
        for (std::size_t i = grouped.size(); i > 1; --i) std::swap(grouped[i - 1], grouped[rng.below(i)]);
        for (std::size_t start = 0; start < grouped.size(); start += group) {
            Point point = anchor;
            for (std::size_t k = start; k < std::min(start + group, grouped.size()); ++k) {
                std::size_t d = grouped[k];
                std::uint32_t c = static_cast<std::uint32_t>(rng.below(space_.choices(d) - 1));
                point[d] = c >= anchor[d] ? c + 1 : c;
            }
            points.push_back(point);
        }
        return points;
    }

    /// Up to kDominantSample choices of dimension d other than skip: `native` when listed,
    /// then a seeded random sample.
    std::vector<std::uint32_t> dominant_sample(std::size_t d, std::uint32_t skip, SearchRng& rng) const {
        std::vector<std::uint32_t> rest;
        std::vector<std::uint32_t> sample;
        for (std::uint32_t c = 1; c < space_.choices(d); ++c) {
            if (c == skip) continue;
            (space_.value(d, c) == "native" ? sample : rest).push_back(c);
        }
        for (std::size_t i = rest.size(); i > 1; --i) std::swap(rest[i - 1], rest[rng.below(i)]);
        for (std::uint32_t c : rest) {
            if (sample.size() >= kDominantSample) break;
            sample.push_back(c);
        }
        return sample;
    }

    /// One knob changed to one value, and the predicted change of log time (negative: faster).
    struct Move {
        double delta;
        std::size_t dim;
        std::uint32_t choice;
    };

    /// For each dimension, its best change of point under effects that predicts a change of
    /// log time below max_delta, among values with P(feasible) of at least min_feasible;
    /// largest predicted gain first.
    std::vector<Move> ranked_moves(const Point& point, const Effects& effects, double max_delta,
                                   const FeasibilityModel& feasibility, double min_feasible) const {
        std::vector<Move> moves;
        for (std::size_t d = 0; d < space_.dimensions(); ++d) {
            Move best{max_delta, d, point[d]};
            for (std::uint32_t c = 0; c < space_.choices(d); ++c) {
                double delta = effects[d][c] - effects[d][point[d]];
                if (c != point[d] && delta < best.delta && feasibility.value(d, c) >= min_feasible) best = {delta, d, c};
            }
            if (best.choice != point[d]) moves.push_back(best);
        }
        std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) { return a.delta < b.delta; });
        return moves;
    }

    /// P(point with move made builds) / P(point builds), by the feasibility model.
    static double feasibility_ratio(const FeasibilityModel& feasibility, const Point& point, const Move& move) {
        return feasibility.value(move.dim, move.choice) /
               (point[move.dim] == 0 ? 1.0 : feasibility.value(move.dim, point[move.dim]));
    }

    /// incumbent with at most max_changes of the changes a posterior draw (effects) favours,
    /// greedily while P(feasible) x predicted gain - P(failure) x kFailureCost grows.
    Point construct(const Point& incumbent, const Effects& effects, const FeasibilityModel& feasibility,
                    std::size_t max_changes) const {
        Point point = incumbent;
        double gain = 0, utility = 0, p = feasibility.route(incumbent);
        std::size_t made = 0;
        for (const Move& move : ranked_moves(incumbent, effects, 0.0, feasibility, 0.0)) {
            if (made == max_changes) break;
            double p_next = p * feasibility_ratio(feasibility, incumbent, move);
            double utility_next = p_next * (gain - move.delta) - (1 - p_next) * kFailureCost;
            if (utility_next <= utility) continue;
            ++made;
            point[move.dim] = move.choice;
            gain -= move.delta;
            utility = utility_next;
            p = p_next;
        }
        return point;
    }

    std::size_t group_size() const {
        return std::clamp<std::size_t>(
            static_cast<std::size_t>(std::lround(std::sqrt(static_cast<double>(space_.dimensions())))), 2, 12);
    }

    /// point with at most max_changes of the changes the model is confident about, largest
    /// predicted gain first, while they together still build with probability kExploitFeasible.
    Point exploit(Point point, const Effects& mean, const FeasibilityModel& feasibility, std::size_t max_changes) const {
        double p = 1.0;
        std::size_t made = 0;
        for (const Move& move : ranked_moves(point, mean, -kConfidentGain, feasibility, kConfidentFeasible)) {
            if (made == max_changes) break;
            double p_next = p * feasibility_ratio(feasibility, point, move);
            if (p_next < kExploitFeasible) break;
            p = p_next;
            point[move.dim] = move.choice;
            ++made;
        }
        return point;
    }

    /// True when an evaluation is in flight.
    static bool pending(const PointHistory& taken) {
        return std::any_of(taken.taken.begin(), taken.taken.end(),
                           [](const auto& entry) { return entry.second->status == Status::Pending; });
    }

    /// Failed evaluations at the end of the history (since the last Ok one).
    static std::size_t trailing_failures(const PointHistory& taken) {
        std::size_t n = 0;
        for (auto it = taken.finished.rbegin(); it != taken.finished.rend() && it->observation->status != Status::Ok; ++it) ++n;
        return n;
    }

    Point best_point(const PointHistory& taken) const {
        const PointHistory::Entry* best = nullptr;
        for (const auto& entry : taken.finished)
            if (entry.observation->status == Status::Ok &&
                (best == nullptr || entry.observation->median_s < best->observation->median_s))
                best = &entry;
        return best ? best->point : space_.baseline();
    }

    SearchSpace space_;
    StrategyOptions options_;
    std::uint64_t enumerate_ = 0;
    std::vector<Point> first_stage_;
    ValueSweep sweep_;
    GrowthSearch growth_;
};

}  // namespace

std::unique_ptr<Strategy> make_auto_strategy(const Expression& expression, const StrategyOptions& options) {
    return std::make_unique<AutoStrategy>(expression, options);
}

}  // namespace routetune
