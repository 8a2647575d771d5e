// GPT's mixed mode. Phase one is fast (the baseline, then every single change). Once every
// phase-one route is observed, phase two takes, for each knob, the values whose single change
// was Ok and beat the baseline with confidence; keeps the mixed_max_knobs knobs whose best
// such value gained most (ties: knob order); and proposes the product over {default} ∪ those
// values of the kept knobs, in mixed-radix order (knob order, first knob slowest; default
// first, then values in list order), skipping anything already observed. While a phase-one
// route is still pending (built or measured in parallel), phase two waits for its result.
#include <algorithm>

#include "search/enumerated_strategy.hpp"
#include "search/strategies.hpp"

namespace routetune {

namespace {

class MixedStrategy : public Strategy {
public:
    MixedStrategy(const Expression& expression, const StrategyOptions& options)
        : expression_(expression), space_(expression), options_(options) {}

    std::string name() const override { return "mixed"; }

    std::vector<Route> propose(const SearchHistory& history, std::size_t max_count) override {
        std::vector<Route> out = untaken_expansion(expression_, ExpansionMode::Fast, space_, history, max_count);
        if (!out.empty() || max_count == 0) return out;
        PointHistory taken(space_, history);
        if (!phase_one_finished(taken)) return out;
        for (const Point& point : phase_two(history, taken)) {
            if (taken.contains(point)) continue;
            out.push_back(space_.route(point));
            if (out.size() == max_count) break;
        }
        return out;
    }

    std::string phase_of(const Route& route, const SearchHistory&) const override {
        auto point = space_.point(route);
        return point && SearchSpace::changes(*point) <= 1 ? "fast" : "mixed-2";
    }

private:
    // Phase two is decided from phase one's results: while a phase-one route is still in
    // flight (pending), there is nothing to propose yet.
    bool phase_one_finished(const PointHistory& taken) const {
        auto stream = expand(expression_, ExpansionMode::Fast);
        while (auto route = stream->next()) {
            auto point = space_.point(*route);
            if (point && taken.finished_observation(*point) == nullptr) return false;
        }
        return true;
    }

    struct Promoted {
        std::size_t dim;
        double gain;
        std::vector<std::uint32_t> choices;
    };

    std::vector<Point> phase_two(const SearchHistory& history, const PointHistory& taken) const {
        const Observation* reference = taken.finished_observation(space_.baseline());
        if (reference == nullptr || reference->status != Status::Ok) return {};
        std::vector<Promoted> promoted;
        for (std::size_t d = 0; d < space_.dimensions(); ++d) {
            Promoted knob{d, 0.0, {}};
            for (std::uint32_t c = 1; c < space_.choices(d); ++c) {
                Point point = space_.baseline();
                point[d] = c;
                const Observation* obs = taken.finished_observation(point);
                if (obs == nullptr || !history.beats(*obs, *reference)) continue;
                knob.choices.push_back(c);
                knob.gain = std::max(knob.gain, reference->median_s / obs->median_s);
            }
            if (!knob.choices.empty()) promoted.push_back(std::move(knob));
        }
        std::stable_sort(promoted.begin(), promoted.end(),
                         [](const Promoted& a, const Promoted& b) { return a.gain > b.gain; });
        std::size_t keep = static_cast<std::size_t>(std::max(options_.mixed_max_knobs, 0));
        if (promoted.size() > keep) promoted.resize(keep);
        std::sort(promoted.begin(), promoted.end(),
                  [](const Promoted& a, const Promoted& b) { return a.dim < b.dim; });
        std::vector<Point> points;
        if (promoted.size() < 2) return points;
        std::vector<std::size_t> digit(promoted.size(), 0);
        while (true) {
            Point point = space_.baseline();
            for (std::size_t k = 0; k < promoted.size(); ++k)
                point[promoted[k].dim] = digit[k] == 0 ? 0 : promoted[k].choices[digit[k] - 1];
            if (SearchSpace::changes(point) >= 2) points.push_back(std::move(point));
            std::size_t k = promoted.size();
            while (k > 0 && ++digit[k - 1] > promoted[k - 1].choices.size()) digit[--k] = 0;
            if (k == 0) break;
        }
        return points;
    }

    Expression expression_;
    SearchSpace space_;
    StrategyOptions options_;
};

}  // namespace

std::unique_ptr<Strategy> make_mixed_strategy(const Expression& expression, const StrategyOptions& options) {
    return std::make_unique<MixedStrategy>(expression, options);
}

}  // namespace routetune
