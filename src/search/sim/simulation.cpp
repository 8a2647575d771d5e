// Simulation drives a strategy exactly as the tune loop does (evaluate the baseline, the
// reference of every speedup, as build one; then propose, evaluate, append to the history,
// propose again) but takes outcomes from an oracle. After every build it
// records the best speedup so far, reference median / best Ok median, and the first build
// count at which that reaches target x the best known speedup. With in_flight it keeps that
// many routes in flight as the study's scheduler does (a result comes back, the oldest, and one
// route is proposed while the others are pending in the history). A recorded study is turned
// into an oracle keyed by point, so equivalent spellings of a route find its record; routes
// absent from the record come back pending: a real study would have had to build them, so
// they count against the budget, but they teach the strategy nothing.
#include "search/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>

#include "routetune/error.hpp"
#include "search/search_space.hpp"

namespace routetune {

SimulationReport simulate(std::string_view strategy, const Expression& expression, const Oracle& oracle,
                          double best_known_speedup, const SimulationOptions& options) {
    SimulationReport report;
    report.strategy = std::string(strategy);
    report.best_known_speedup = best_known_speedup;
    SearchSpace space(expression);
    Route baseline = space.route(space.baseline());
    report.mean_fraction.assign(options.budget, 0.0);
    std::vector<double> to_target;
    for (std::uint64_t seed : options.seeds) {
        StrategyOptions strategy_options;
        strategy_options.seed = seed;
        strategy_options.mixed_max_knobs = options.mixed_max_knobs;
        auto search = make_strategy(strategy, expression, strategy_options);
        SearchHistory history;
        history.min_gain = options.min_gain;
        SimulationRun run;
        run.seed = seed;
        double reference = 0, best = std::numeric_limits<double>::infinity();
        auto evaluate = [&](const Route& route) {
            Observation obs = oracle(route);
            obs.route = route;
            if (obs.status == Status::Ok && obs.median_s > 0) {
                if (route == baseline) reference = obs.median_s;
                best = std::min(best, obs.median_s);
            }
            history.observations.push_back(std::move(obs));
            double speedup = reference > 0 ? std::max(1.0, reference / best) : 1.0;
            run.best_speedup.push_back(speedup);
            if (!run.builds_to_target && speedup >= options.target * best_known_speedup)
                run.builds_to_target = run.best_speedup.size();
        };
        if (options.budget > 0) evaluate(baseline);
        std::deque<Route> flying;  // proposed, not yet evaluated, oldest first
        auto refill = [&] {  // in_flight: one route at a time, the others pending; else a batch once all are evaluated
            std::size_t left = options.budget - run.best_speedup.size();
            if (options.in_flight <= 1) {
                if (flying.empty())
                    for (Route& route : search->propose(history, std::min(options.batch, left))) flying.push_back(std::move(route));
                return;
            }
            while (flying.size() < std::min(options.in_flight, left)) {
                SearchHistory view = history;
                for (const Route& route : flying) view.observations.push_back(pending_observation(route));
                std::vector<Route> routes = search->propose(view, 1);
                if (routes.empty()) return;
                flying.push_back(std::move(routes.front()));
            }
        };
        while (run.best_speedup.size() < options.budget) {
            refill();
            if (flying.empty()) {
                run.strategy_finished = true;
                break;
            }
            evaluate(flying.front());
            flying.pop_front();
        }
        run.history = std::move(history.observations);
        double last = run.best_speedup.empty() ? 1.0 : run.best_speedup.back();
        for (std::size_t k = 0; k < options.budget; ++k)
            report.mean_fraction[k] += (k < run.best_speedup.size() ? run.best_speedup[k] : last) / best_known_speedup;
        to_target.push_back(run.builds_to_target ? static_cast<double>(*run.builds_to_target)
                                                 : std::numeric_limits<double>::infinity());
        if (run.builds_to_target) ++report.reached;
        report.runs.push_back(std::move(run));
    }
    if (!options.seeds.empty())
        for (double& v : report.mean_fraction) v /= static_cast<double>(options.seeds.size());
    if (report.reached > 0) {
        double sum = 0;
        for (double v : to_target)
            if (std::isfinite(v)) sum += v;
        report.mean_builds_to_target = sum / static_cast<double>(report.reached);
    }
    if (!to_target.empty()) {
        std::sort(to_target.begin(), to_target.end());
        std::size_t n = to_target.size();
        double median = n % 2 == 1 ? to_target[n / 2] : (to_target[n / 2 - 1] + to_target[n / 2]) / 2;
        if (std::isfinite(median)) report.median_builds_to_target = median;
    }
    return report;
}

SimulationReport simulate_recorded(std::string_view strategy, const Expression& expression,
                                   const std::vector<Observation>& record, const SimulationOptions& options) {
    make_strategy(strategy, expression, {});
    SearchSpace space(expression);
    std::unordered_map<Point, Observation, PointHash> by_point;
    for (const Observation& obs : record)
        if (auto point = space.point(obs.route); point && obs.status != Status::Pending) by_point[*point] = obs;
    auto reference = by_point.find(space.baseline());
    if (reference == by_point.end() || reference->second.status != Status::Ok || reference->second.median_s <= 0)
        throw UsageError("the recorded study has no Ok evaluation of the baseline route '" +
                         space.route(space.baseline()).to_string() + "'; nothing to compare against");
    double best = reference->second.median_s;
    for (const auto& [point, obs] : by_point)
        if (obs.status == Status::Ok && obs.median_s > 0) best = std::min(best, obs.median_s);
    Oracle oracle = [&](const Route& route) {
        Observation obs;
        obs.route = route;
        if (auto point = space.point(route)) {
            auto it = by_point.find(*point);
            if (it != by_point.end()) obs = it->second;
        }
        return obs;
    };
    return simulate(strategy, expression, oracle, reference->second.median_s / best, options);
}

Expression expression_from_record(const std::vector<Observation>& record) {
    std::map<std::string, std::vector<std::string>> seen;
    std::map<std::string, std::size_t> routes_with;
    for (const Observation& obs : record)
        for (const auto& [knob, value] : obs.route.assignments()) {
            auto& values = seen[knob];
            if (std::find(values.begin(), values.end(), value) == values.end()) values.push_back(value);
            ++routes_with[knob];
        }
    Expression expression;
    for (auto& [knob, values] : seen) {
        Axis axis;
        axis.knob = knob;
        if (routes_with[knob] < record.size()) {
            values.push_back(kRecordDefault);
            axis.default_value = kRecordDefault;
        }
        axis.values = ValueList::of(values);
        expression.text += (expression.text.empty() ? "" : " ") + knob + "=[";
        for (std::size_t i = 0; i < values.size(); ++i) expression.text += (i ? "|" : "") + values[i];
        expression.text += "]";
        expression.axes.push_back(std::move(axis));
    }
    return expression;
}

std::string simulation_summary(const SimulationReport& report) {
    std::ostringstream out;
    out.precision(4);
    out << report.strategy << ": best known speedup " << report.best_known_speedup << "; reached "
        << report.reached << "/" << report.runs.size() << " runs";
    if (report.mean_builds_to_target) out << "; builds to target: mean " << *report.mean_builds_to_target;
    if (report.median_builds_to_target) out << ", median " << *report.median_builds_to_target;
    out << "\n  fraction of best known after";
    for (std::size_t k : {10, 20, 50, 100, 200, 500, 1000})
        if (k <= report.mean_fraction.size()) out << "  " << k << ": " << report.mean_fraction[k - 1];
    out << "\n";
    return out.str();
}

}  // namespace routetune
