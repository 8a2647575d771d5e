// Fits the search's AdditiveModel to a finished (or running) study without its spec or
// catalog: the space is rebuilt from the routes themselves, one dimension per knob any
// evaluation sets, whose values are the ones seen and whose choice 0 is "left unset" (the
// default). A knob every route sets to one value carries no information and stays fixed.
// The posterior mean gives each value's effect; the interval comes from Thompson draws of
// the same model, so the report shows exactly what model-guided strategies believe.
#include "report/knob_effects.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "report/report_row.hpp"
#include "search/additive_model.hpp"
#include "search/search_space.hpp"

namespace routetune {

namespace {

Expression observed_expression(const std::vector<Evaluation>& evaluations) {
    std::map<std::string, std::set<std::string>> values;
    std::map<std::string, std::size_t> set_in;
    std::size_t routes = 0;
    for (const auto& e : evaluations) {
        if (e.status == Status::Pending) continue;
        ++routes;
        for (const auto& [knob, value] : e.route.assignments()) {
            values[knob].insert(value);
            ++set_in[knob];
        }
    }
    Expression expression;
    for (const auto& [knob, seen] : values) {
        Axis axis{knob, ValueList::of({seen.begin(), seen.end()}), "", true};
        axis.may_be_unset = seen.size() > 1 || set_in[knob] < routes;
        expression.axes.push_back(std::move(axis));
    }
    return expression;
}

double quantile(std::vector<double> values, double q) {
    std::sort(values.begin(), values.end());
    double at = q * static_cast<double>(values.size() - 1);
    auto below = static_cast<std::size_t>(std::floor(at));
    std::size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (values[above] - values[below]) * (at - static_cast<double>(below));
}

}  // namespace

std::vector<KnobEffect> knob_effects(const StudySummary& summary, std::size_t limit, std::size_t draws) {
    if (!summary.default_evaluation || summary.default_evaluation->status != Status::Ok ||
        !has_timing(summary.default_evaluation->timing) || draws == 0)
        return {};
    SearchHistory history;
    for (const auto& e : summary.evaluations) {
        if (e.status == Status::Pending) continue;
        history.observations.push_back(observe(e, &*summary.default_evaluation));
    }
    std::size_t ok = std::count_if(history.observations.begin(), history.observations.end(),
                                   [](const Observation& o) { return o.status == Status::Ok; });
    if (ok < 2) return {};
    SearchSpace space(observed_expression(summary.evaluations));
    PointHistory points(space, history);
    AdditiveModel model(space, points, summary.default_evaluation->timing.median_s);
    Effects mean = model.mean();
    SearchRng rng(1);
    std::vector<Effects> samples;
    for (std::size_t i = 0; i < draws; ++i) samples.push_back(model.sample(rng));
    std::vector<KnobEffect> effects;
    for (std::size_t d = 0; d < space.dimensions(); ++d) {
        for (std::uint32_t c = 1; c < space.choices(d); ++c) {
            KnobEffect effect{space.knob(d), space.value(d, c), std::exp(-mean[d][c]), 1, 1, 0};
            for (const auto& entry : points.finished)
                if (entry.observation->status == Status::Ok && entry.point[d] == c) ++effect.routes;
            if (effect.routes == 0) continue;
            std::vector<double> drawn;
            for (const auto& s : samples) drawn.push_back(std::exp(-s[d][c]));
            effect.low = quantile(drawn, 0.025);
            effect.high = quantile(drawn, 0.975);
            effects.push_back(std::move(effect));
        }
    }
    std::stable_sort(effects.begin(), effects.end(), [](const KnobEffect& a, const KnobEffect& b) {
        return std::abs(std::log(a.speedup)) > std::abs(std::log(b.speedup));
    });
    if (effects.size() > limit) effects.resize(limit);
    return effects;
}

}  // namespace routetune
