// Benchmarks the strategies on synthetic landscapes: for each landscape seed, each strategy
// is replayed (seeded with the landscape seed) for a budget of builds, and the number of
// builds it needed to reach 95% of the best known speedup is recorded; the table compares
// the mean and median against the number of builds fast needs over the same space.
// With --shape wide the landscapes have the issue-13 shape (LandscapeOptions::wide); wide-clean
// is that shape without the values that fail or cost time (the family knobs' failing values stay). The
// true@20% columns judge the route a study would pick after 20% of fast's builds (the best
// measured one) by its noiseless speedup over the optimum: median and worst over the seeds;
// changes is the median number of non-default values of that route (the optimum's in brackets).
// With --serve S it serves landscape seed S to another tuner (bench/optuna_peer.py) instead:
// one JSON line with the space, then for each route read from stdin ("-k001=on -p000=8"), a
// line "STATUS MEDIAN TRUE_SPEEDUP". The second table shrinks each pick with minimize_route and
// a model of tune --minimize's judge (costs_time below; --judge-sd sets its log noise per
// sample): changes, true fraction, trials.
// --diagnose prints, for each pick, the changes of the
// optimum that matter and that the pick lacks (what they would gain, whether they were built),
// what its costly changes cost, its needles (synergies of two or more enum values that do
// nothing alone) against the optimum's, and the pick's and its minimal route's size and true
// fraction; and, per strategy, the needle ceiling: the most each pick could reach of the
// optimum if it found everything but the needles it does not hold.
// --pick-at N judges the pick after N builds instead (the true@N column). --batch K asks for K
// routes at a time, evaluated together; --in-flight N keeps N routes in flight as a study's
// scheduler does (one result back, the oldest, then one proposal with the others pending).
// --interval-spread S draws each measurement's interval half width as 1.5 noise sd times
// exp(S x a normal draw) (0, the default: all the same width; an end-to-end study's spread, 3
// repeats of 1% noise, is about 0.6).
// Environment: MINIMIZE_CAP=1 caps the minimization at minimization_trials (a fifth of the
// budget), NO_HISTORY_ORDER=1 minimizes without the study's blocks; BLOCK_DEBUG=1 prints the
// pick's blocks (paid or not, what removing the unpaid ones costs), BLOCK_TRUE=1 each block's
// measured gain beside the true cost of removing it, HARM_KNOB=K the members of K's block.
// Usage: strategy_bench [--knobs N] [--seeds K] [--budget B] [--target F] [--strategies a,b,c] [--shape classic|wide|wide-needles|wide-clean|gcc|gcc-thin|gcc-doors] [--serve S] [--diagnose] [--minimize-trials T (400)] [--judge-sd SD (the landscape's)] [--pick-at N] [--batch K] [--in-flight N] [--interval-spread S]
#include <algorithm>
#include <set>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gcc_landscape/gcc_landscape.hpp"
#include "search/search_space.hpp"
#include "search/sim/simulation.hpp"
#include "search/sim/synthetic_landscape.hpp"
#include "study/removal_judge.hpp"
#include "study/change_blocks.hpp"
#include "study/route_minimizer.hpp"

using namespace routetune;

namespace {

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Pick {
    Route route;
    double true_speedup = 1;
};

/// The best measured Ok route among the first builds of history, and its noiseless speedup.
Pick pick_at(const std::vector<Observation>& history, std::size_t builds, const SyntheticLandscape& landscape) {
    const Observation* best = nullptr;
    for (std::size_t i = 0; i < std::min(builds, history.size()); ++i)
        if (history[i].status == Status::Ok && (best == nullptr || history[i].median_s < best->median_s)) best = &history[i];
    Pick pick;
    if (best != nullptr) pick = {best->route, landscape.true_time(Route{}) / landscape.true_time(best->route)};
    return pick;
}


/// Prints, on stderr, what the changes of pick that cost time cost together (the log time that
/// removing each one alone would save, summed), and the costliest of them.
void print_costly(const Pick& pick, const SyntheticLandscape& landscape) {
    double time = landscape.true_time(pick.route), total = 0;
    std::vector<std::pair<double, std::string>> costly;
    for (const auto& [knob, value] : pick.route.assignments()) {
        Route without = pick.route;
        without.erase(knob);
        double saved = std::log(time / landscape.true_time(without));
        if (saved <= 0) continue;
        total += saved;
        costly.emplace_back(saved, knob + "=" + value);
    }
    std::sort(costly.rbegin(), costly.rend());
    std::fprintf(stderr, "  %zu held changes cost time: %.4f in all;", costly.size(), total);
    for (std::size_t i = 0; i < std::min<std::size_t>(costly.size(), 6); ++i)
        std::fprintf(stderr, " %s %.4f", costly[i].second.c_str(), costly[i].first);
    std::fprintf(stderr, "\n");
}

/// Prints, on stderr, each change of the landscape's essential route that pick lacks: what
/// adding it to pick would gain, what it gains alone, and whether history ever built it; then
/// pick's costly changes and its needles. Returns pick's needle ceiling (the most of the
/// optimum it could reach with only the needles it holds).
double print_missing(const std::vector<Observation>& history, const Pick& pick, const SyntheticLandscape& landscape) {
    double base = landscape.true_time(Route{}), best = 1;
    for (const auto& obs : history)
        if (obs.status == Status::Ok) best = std::max(best, base / landscape.true_time(obs.route));
    std::size_t single = 0, failed = 0;
    for (const auto& obs : history) {
        single += obs.route.assignments().size() <= 1;
        failed += obs.status != Status::Ok;
    }
    std::set<std::pair<std::string, std::string>> built_ok;
    for (const auto& obs : history)
        if (obs.status == Status::Ok)
            for (const auto& assignment : obs.route.assignments()) built_ok.insert(assignment);
    std::size_t harmless = 0, harmless_built = 0;
    for (const Axis& axis : landscape.expression().axes)
        for (std::uint64_t i = 0; i < axis.values.size(); ++i) {
            Route alone;
            alone.set(axis.knob, axis.values.at(i));
            if (axis.values.at(i) == axis.default_value || !(landscape.true_time(alone) <= base)) continue;
            ++harmless;
            harmless_built += built_ok.count({axis.knob, axis.values.at(i)});
        }
    std::fprintf(stderr, "pick %.3f, best built %.3f, optimum %.3f; %zu builds: %zu of one change or none, %zu failed; "
                 "%zu of %zu values that neither fail nor cost time alone were built Ok\n",
                 pick.true_speedup, best, landscape.best_speedup(), history.size(), single, failed, harmless_built, harmless);
    Route essential = landscape.essential_route();
    for (const auto& [knob, value] : essential.assignments()) {
        auto held = pick.route.get(knob);
        if (held && *held == value) continue;
        Route with = pick.route, alone;
        with.set(knob, value);
        alone.set(knob, value);
        bool tried = false, built = false;
        for (const auto& obs : history)
            if (auto v = obs.route.get(knob); v && *v == value) tried = true, built |= obs.status == Status::Ok;
        std::fprintf(stderr, "  missing %s=%s (pick: %s): gains %.4f added, %.4f alone; tried %d, built %d\n", knob.c_str(),
                     value.c_str(), held ? held->c_str() : "default", std::log(landscape.true_time(pick.route) / landscape.true_time(with)),
                     std::log(base / landscape.true_time(alone)), int(tried), int(built));
    }
    print_costly(pick, landscape);
    Route optimum = landscape.best_route();
    std::vector<std::pair<double, std::string>> differ;
    double pick_time = landscape.true_time(pick.route);
    for (const Axis& axis : landscape.expression().axes) {
        auto want = optimum.get(axis.knob), held = pick.route.get(axis.knob);
        if (want == held) continue;
        Route with = pick.route;
        if (want) with.set(axis.knob, *want);
        else with.erase(axis.knob);
        std::size_t tried = 0, built = 0;
        for (const auto& obs : history)
            if (obs.route.get(axis.knob) == want) ++tried, built += obs.status == Status::Ok;
        differ.emplace_back(std::log(pick_time / landscape.true_time(with)),
                            axis.knob + "=" + (want ? *want : "default") + " (pick " + (held ? *held : "default") + ", " +
                                std::to_string(built) + "/" + std::to_string(tried) + " Ok)");
    }
    std::sort(differ.rbegin(), differ.rend());
    for (const auto& rule : landscape.interactions()) {
        bool in_pick = true, in_optimum = true;
        for (const auto& [knob, value] : rule.members) {
            in_pick &= pick.route.get(knob) == value;
            in_optimum &= optimum.get(knob) == value;
        }
        if (in_pick || !in_optimum) continue;
        std::fprintf(stderr, "  interaction of the optimum the pick lacks (%.3f):", rule.log_effect);
        for (const auto& [knob, value] : rule.members) {
            std::size_t tried = 0, built = 0;
            for (const auto& obs : history)
                if (obs.route.get(knob) == value) ++tried, built += obs.status == Status::Ok;
            auto held = pick.route.get(knob);
            std::fprintf(stderr, " %s=%s (pick %s, %zu/%zu Ok)", knob.c_str(), value.c_str(), held ? held->c_str() : "default", built, tried);
        }
        std::fprintf(stderr, "\n");
    }
    if (const char* trace = std::getenv("TRACE_VALUE")) {
        std::string text = trace;
        auto eq = text.find('=');
        std::string knob = text.substr(0, eq), value = text.substr(eq + 1);
        for (std::size_t i = 0; i < history.size(); ++i)
            if (history[i].route.get(knob) == value) {
                std::fprintf(stderr, "TRACE %zu %s %.4f true %.4f changes %zu:", i, std::string(to_string(history[i].status)).c_str(),
                             history[i].median_s, landscape.true_time(history[i].route), history[i].route.assignments().size());
                double t = landscape.true_time(history[i].route);
                for (const auto& [k, v] : history[i].route.assignments()) {
                    Route w = history[i].route;
                    w.erase(k);
                    double c = std::log(t / landscape.true_time(w));
                    if (std::abs(c) > 0.008) std::fprintf(stderr, " %s=%s %.3f", k.c_str(), v.c_str(), c);
                }
                std::fprintf(stderr, "\n");
            }
    }
    double moves = 0;
    for (const auto& d : differ) moves += std::max(0.0, d.first);
    std::fprintf(stderr, "  %zu knobs differ from the optimum; the moves to its values that gain, summed: %.4f (log of optimum / pick %.4f):",
                 differ.size(), moves, std::log(landscape.best_speedup() / pick.true_speedup));
    for (std::size_t i = 0; i < std::min<std::size_t>(differ.size(), 8); ++i)
        std::fprintf(stderr, " %s %.4f", differ[i].second.c_str(), differ[i].first);
    std::fprintf(stderr, "\n");
    double unheld = landscape.needle_log_gain(optimum) - landscape.needle_log_gain(pick.route);
    std::fprintf(stderr, "  needles (synergies with 2+ members on enum knobs): %.4f of the optimum's log gain %.4f; the pick holds %.4f; "
                 "without more of them at most %.3f of the optimum\n", landscape.needle_log_gain(optimum),
                 std::log(landscape.best_speedup()), landscape.needle_log_gain(pick.route), std::exp(-unheld));
    return std::exp(-unheld);
}

/// The landscape of shape (classic, wide, or wide-clean: wide without the values that fail,
/// are inaccurate or cost time, i.e. what growth could reach if it knew them all in advance).
LandscapeOptions landscape_options(const std::string& shape, std::size_t knobs, std::uint64_t seed) {
    LandscapeOptions options = shape == "classic"        ? LandscapeOptions{}
                               : shape == "wide-needles" ? LandscapeOptions::wide_needles(knobs, seed)
                                                         : LandscapeOptions::wide(knobs, seed);
    options.knobs = knobs;
    options.seed = seed;
    if (shape == "wide-clean") {
        options.failing_rate = 0;
        options.inaccurate = 0;
        options.failing_pairs = 0;
        options.harmful = 0;
    }
    return options;
}

/// The landscape of shape and seed: a modelled GCC one (gcc, gcc-thin) or a synthetic one.
SyntheticLandscape make_landscape(const std::string& shape, std::size_t knobs, std::uint64_t seed, double interval_spread) {
    if (is_gcc_kind(shape)) return gcc_landscape(shape, seed, interval_spread);
    LandscapeOptions options = landscape_options(shape, knobs, seed);
    options.interval_spread = interval_spread;
    return SyntheticLandscape(options);
}

/// Answers route queries on stdin for an outside tuner; see the usage above.
int serve_landscape(const SyntheticLandscape& landscape) {
    nlohmann::json space;
    space["best_speedup"] = landscape.best_speedup();
    space["fast"] = 1 + SearchSpace(landscape.expression()).single_changes();
    for (const Axis& axis : landscape.expression().axes) {
        std::vector<std::string> values;
        for (std::uint64_t i = 0; i < axis.values.size(); ++i) values.push_back(axis.values.at(i));
        std::string unset = axis.default_value;  // a knob whose default is not a value: a stand-in for "left out"
        if (!axis.values.contains(unset)) values.insert(values.begin(), unset = "(default)");
        space["knobs"].push_back({{"name", axis.knob}, {"default", unset}, {"values", values}});
    }
    std::printf("%s\n", space.dump().c_str());
    std::fflush(stdout);
    double reference = landscape.true_time(Route{});
    for (std::string line; std::getline(std::cin, line);) {
        Route route = Route::parse(line);
        Observation obs = landscape.evaluate(route);
        std::printf("%s %.9g %.9g\n", std::string(to_string(obs.status)).c_str(), obs.median_s,
                    obs.status == Status::Ok ? reference / landscape.true_time(route) : 0.0);
        std::fflush(stdout);
    }
    return 0;
}

/// The judge of tune --minimize (WinnerMinimizer), modelled: a candidate that fails (or is
/// inaccurate) costs time; otherwise each interleaved round samples reference and candidate
/// afresh, true time times log-normal noise of the landscape's sd, from a generator indexed by
/// the trial (never the landscape's own, route-fixed noise), and slower_with_confidence decides
/// as in a study. No sample repeats the measurement the search picked the route by.
CostsTime costs_time(const SyntheticLandscape& landscape, double noise_sd, std::uint64_t seed, std::size_t& rounds_drawn) {
    auto trial = std::make_shared<std::uint64_t>(0);
    return [&landscape, noise_sd, seed, trial, &rounds_drawn](const Route& reference, const Route& candidate) {
        if (landscape.evaluate(candidate).status != Status::Ok) return true;
        SearchRng rng(seed, 0x6a75646765ULL + (*trial)++);
        double ref_time = landscape.true_time(reference), cand_time = landscape.true_time(candidate);
        return slower_with_confidence([&](int rounds, std::vector<double>& ref, std::vector<double>& cand) {
            rounds_drawn += static_cast<std::size_t>(rounds);
            for (int i = 0; i < rounds; ++i) {
                ref.push_back(ref_time * std::exp(noise_sd * rng.normal()));
                cand.push_back(cand_time * std::exp(noise_sd * rng.normal()));
            }
            return true;
        });
    };
}

/// The changes of pick that minimal lacks and whose removal from pick alone costs time (log),
/// largest first: what the minimization lost.
void print_lost(const Route& pick, const Route& minimal, const SyntheticLandscape& landscape) {
    double pick_time = landscape.true_time(pick);
    std::vector<std::pair<double, std::string>> lost;
    for (const auto& [knob, value] : pick.assignments()) {
        if (minimal.get(knob) == value) continue;
        Route without = pick;
        without.erase(knob);
        double cost = std::log(landscape.true_time(without) / pick_time);
        if (cost > 0.002) lost.emplace_back(cost, knob + "=" + value);
    }
    std::sort(lost.rbegin(), lost.rend());
    double cost = std::log(landscape.true_time(minimal) / pick_time);
    std::fprintf(stderr, "  minimal vs pick: %+.4f log time; lost alone:", cost);
    for (const auto& [c, change] : lost) std::fprintf(stderr, " %s %.4f", change.c_str(), c);
    std::fprintf(stderr, "\n");
}

struct MinimalRow {
    std::string name;
    double changes, most, fraction, worst, trials;
};

}  // namespace

int main(int argc, char** argv) {
    std::size_t knobs = 60, seeds = 10, budget = 0, serve = 0, max_trials = 400, pick_builds = 0, batch = 1, in_flight = 0;
    double target = 0.95, judge_sd = 0, interval_spread = 0;
    std::string list = "auto,model,evolve,greedy,random,mixed,fast", shape = "classic";
    bool diagnose = false;
    bool history_order = !std::getenv("NO_HISTORY_ORDER"), minimize_cap = !!std::getenv("MINIMIZE_CAP");
    CLI::App app{"Replays the search strategies on synthetic landscapes (see the comment at the top of bench/strategy_bench.cpp)"};
    app.add_option("--knobs", knobs, "knobs of a synthetic landscape");
    app.add_option("--seeds", seeds, "landscape seeds 1..N");
    app.add_option("--budget", budget, "builds per run (0: twice fast's)");
    app.add_option("--target", target, "the fraction of the best known speedup to reach");
    app.add_option("--strategies", list, "comma-separated strategies");
    app.add_option("--shape", shape, "classic, wide, wide-needles, wide-clean, gcc, gcc-thin or gcc-doors");
    app.add_option("--serve", serve, "serve landscape seed S to another tuner instead");
    app.add_option("--minimize-trials", max_trials, "the minimizer's trial limit");
    app.add_option("--judge-sd", judge_sd, "the minimizer's judge's log noise per sample (0: the landscape's)");
    app.add_option("--pick-at", pick_builds, "judge the pick after N builds (0: a fifth of fast's)");
    app.add_option("--batch", batch, "routes asked for at a time, evaluated together");
    app.add_option("--in-flight", in_flight, "routes kept in flight as a study's scheduler does");
    app.add_option("--interval-spread", interval_spread, "log sd of each interval's half width around 1.5 noise sd");
    app.add_flag("--diagnose", diagnose, "what each pick lacks and what its costly changes cost");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
        return app.exit(error) == 0 ? 0 : 2;
    }
    if (shape != "classic" && shape != "wide" && shape != "wide-clean" && shape != "wide-needles" && !is_gcc_kind(shape)) {
        std::fprintf(stderr, "unknown shape %s (classic, wide, wide-needles, wide-clean, gcc, gcc-thin or gcc-doors)\n", shape.c_str());
        return 2;
    }
    if (serve != 0) {
        return serve_landscape(make_landscape(shape, knobs, serve, interval_spread));
    }
    std::vector<std::string> strategies;
    std::stringstream split(list);
    for (std::string name; std::getline(split, name, ',');) strategies.push_back(name);

    std::vector<SyntheticLandscape> landscapes;
    double fast_builds = 0, best_speedups = 0;
    std::vector<double> optimum_changes;
    std::vector<MinimalRow> minimal_rows;
    for (std::size_t s = 1; s <= seeds; ++s) {
        landscapes.push_back(make_landscape(shape, knobs, s, interval_spread));
        optimum_changes.push_back(static_cast<double>(landscapes.back().essential_route().assignments().size()));
        fast_builds += 1.0 + static_cast<double>(SearchSpace(landscapes.back().expression()).single_changes());
        best_speedups += landscapes.back().best_speedup();
    }
    fast_builds /= static_cast<double>(seeds);
    if (budget == 0) budget = static_cast<std::size_t>(fast_builds * 1.5);
    if (is_gcc_kind(shape)) knobs = landscapes.front().expression().axes.size();
    std::printf("landscapes: %zu knobs, %zu seeds; fast needs %.1f builds on average; best known speedup %.3f on average\n",
                knobs, seeds, fast_builds, best_speedups / static_cast<double>(seeds));
    std::printf("target: %.0f%% of the best known speedup; budget %zu builds per run\n\n", target * 100, budget);
    std::string true_column = pick_builds ? "true@" + std::to_string(pick_builds) : "true@20%";
    std::printf("%-8s %8s %10s %10s %12s %14s %14s %10s %10s %12s\n", "strategy", "reached", "mean", "median", "mean/fast",
                "frac@20%fast", "frac@budget", true_column.c_str(), "worst", "changes");
    for (const std::string& name : strategies) {
        std::vector<double> needed, true_fifth, changes, minimal_changes, minimal_fraction, minimal_trials, needle_ceilings;
        double at_fifth = 0, at_end = 0;
        std::size_t fifth = std::max<std::size_t>(1, static_cast<std::size_t>(fast_builds * 0.2));
        for (std::size_t s = 1; s <= seeds; ++s) {
            const SyntheticLandscape& landscape = landscapes[s - 1];
            SimulationOptions options;
            options.budget = budget;
            options.seeds = {s};
            options.target = target;
            options.batch = batch;
            options.in_flight = in_flight;
            Oracle oracle = [&](const Route& route) { return landscape.evaluate(route); };
            SimulationReport report = simulate(name, landscape.expression(), oracle, landscape.best_speedup(), options);
            const SimulationRun& run = report.runs.front();
            needed.push_back(run.builds_to_target ? static_cast<double>(*run.builds_to_target)
                                                  : std::numeric_limits<double>::infinity());
            at_fifth += report.mean_fraction[std::min(fifth, budget) - 1];
            at_end += report.mean_fraction.back();
            Pick pick = pick_at(run.history, std::min(pick_builds ? pick_builds : fifth, budget), landscape);
            true_fifth.push_back(pick.true_speedup / landscape.best_speedup());
            changes.push_back(static_cast<double>(pick.route.assignments().size()));
            if (diagnose) needle_ceilings.push_back(print_missing(run.history, pick, landscape));
            double noise_sd = judge_sd > 0 ? judge_sd : landscape_options(shape, knobs, s).noise_sd;
            std::size_t rounds = 0;
            std::size_t trials = minimize_cap ? minimization_trials(pick.route.assignments().size(), budget) : max_trials;
            std::vector<ChangeBlock> order = history_order ? change_blocks(pick.route, Route{}, run.history) : std::vector<ChangeBlock>{};
            if (std::getenv("BLOCK_DEBUG")) {
                std::size_t paid = 0, paid_knobs = 0, unpaid_knobs = 0;
                for (const auto& b : order) { paid += b.paid; (b.paid ? paid_knobs : unpaid_knobs) += b.knobs.size(); }
                std::fprintf(stderr, "blocks %zu paid %zu (%zu knobs) unpaid knobs %zu; unpaid removal costs %.4f\n", order.size(), paid, paid_knobs, unpaid_knobs,
                    [&] { Route r = pick.route; for (const auto& b : order) if (!b.paid) for (const auto& k : b.knobs) r.erase(k); return std::log(landscape.true_time(r) / landscape.true_time(pick.route)); }());
                for (const auto& b : order) if (b.paid) std::fprintf(stderr, " [%zu %.3f]", b.knobs.size(), b.gain);
                if (std::getenv("BLOCK_TRUE")) {
                    std::vector<ChangeBlock> ranked = order;
                    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.gain > b.gain; });
                    double t0 = landscape.true_time(pick.route);
                    for (const auto& b : ranked) {
                        Route r = pick.route; for (const auto& k : b.knobs) r.erase(k);
                        double c = std::log(landscape.true_time(r) / t0);
                        std::fprintf(stderr, "\n  block %2zu gain %+.4f paid %d true removal cost %+.4f", b.knobs.size(), b.gain, b.paid, c);
                        if (const char* k = std::getenv("HARM_KNOB"))
                            if (std::find(b.knobs.begin(), b.knobs.end(), std::string(k)) != b.knobs.end())
                                for (const auto& kn : b.knobs) { Route r1 = pick.route; r1.erase(kn); std::fprintf(stderr, " [%s %+.4f]", kn.c_str(), std::log(landscape.true_time(r1) / t0)); }
                    }
                }
                std::fprintf(stderr, "\n");
            }
            MinimizedRoute minimal = minimize_route(pick.route, Route{}, order, costs_time(landscape, noise_sd, s, rounds), trials);
            if (diagnose) print_lost(pick.route, minimal.route, landscape);
            minimal_changes.push_back(static_cast<double>(minimal.route.assignments().size()));
            minimal_fraction.push_back(landscape.true_time(Route{}) / landscape.true_time(minimal.route) / landscape.best_speedup());
            minimal_trials.push_back(static_cast<double>(minimal.trials));
            if (diagnose)
                std::fprintf(stderr, "seed %zu: pick %zu changes, true %.3f; minimal %zu changes, true %.3f, %zu trials%s, %.1f rounds each\n",
                             s, pick.route.assignments().size(), true_fifth.back(), minimal.route.assignments().size(),
                             minimal_fraction.back(), minimal.trials, minimal.cut_short ? " (cut short)" : "",
                             static_cast<double>(rounds) / static_cast<double>(std::max<std::size_t>(minimal.trials, 1)));
        }
        std::vector<double> sorted = needed;
        std::sort(sorted.begin(), sorted.end());
        double sum = 0;
        std::size_t reached = 0;
        for (double v : needed)
            if (std::isfinite(v)) sum += v, ++reached;
        double median = sorted.size() % 2 ? sorted[sorted.size() / 2]
                                          : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
        double mean = reached ? sum / static_cast<double>(reached) : std::numeric_limits<double>::infinity();
        std::printf("%-8s %5zu/%-2zu %10.1f %10.1f %12.3f %14.3f %14.3f %10.3f %10.3f %6.1f (%.1f)\n", name.c_str(), reached,
                    seeds, mean, median, mean / fast_builds, at_fifth / static_cast<double>(seeds),
                    at_end / static_cast<double>(seeds), median_of(true_fifth),
                    *std::min_element(true_fifth.begin(), true_fifth.end()), median_of(changes), median_of(optimum_changes));
        if (diagnose)
            std::printf("%-8s needle ceiling (the most each pick could reach with only the needles it holds): median %.3f, worst %.3f\n",
                        name.c_str(), median_of(needle_ceilings), *std::min_element(needle_ceilings.begin(), needle_ceilings.end()));
        minimal_rows.push_back({name, median_of(minimal_changes), *std::max_element(minimal_changes.begin(), minimal_changes.end()),
                                median_of(minimal_fraction), *std::min_element(minimal_fraction.begin(), minimal_fraction.end()),
                                median_of(minimal_trials)});
    }
    std::printf("\nminimal routes of the routes picked at 20%% of fast (minimize_route judged as tune --minimize, modelled; at most %zu trials; optimum: %.1f changes that matter)\n",
                max_trials, median_of(optimum_changes));
    std::printf("%-8s %10s %10s %10s %10s %10s\n", "strategy", "changes", "most", "true", "worst", "trials");
    for (const MinimalRow& row : minimal_rows)
        std::printf("%-8s %10.1f %10.0f %10.3f %10.3f %10.1f\n", row.name.c_str(), row.changes, row.most, row.fraction,
                    row.worst, row.trials);
    return 0;
}
