// gcc_landscape_cc: a fake GCC 12 whose builds follow a modelled landscape (gcc_landscape.hpp),
// for end-to-end `routetune tune` studies of GCC's real shape (bench/gcc_landscape/run_e2e.sh).
// Discovery is answered from tests/fixtures/gcc12 (the catalog text GCC 12.2 prints at -O2), so
// the study's `*=~` is the simulation's; the route check's `-Q --help=...` call is answered with
// the states the route's flags ask for (a route is seen as built as asked); probe compiles (-o /dev/null) accept everything. A
// build maps its argv back to a route (every flag gcc_flag_for gives for a value of `*=~`;
// anything else is ignored), evaluates it on the landscape of LANDSCAPE_KIND (gcc, gcc-thin)
// and LANDSCAPE_SEED, and fails as the landscape says (build_failed: exit 1; build_crashed:
// SIGSEGV) or writes an artifact: an sh script that runs this program again in run mode.
// A run (ARTIFACT METRICS [INPUT]) reports 100 ms x the route's noiseless time x log-normal
// noise of LANDSCAPE_NOISE (default 0.01) per run, drawn from the route and a run counter kept
// beside the artifact, as {"time_ms": [T]} in METRICS, and prints 8 numbers from INPUT's first
// (x 1.001 when the route is inaccurate); run_crashed: SIGSEGV, run_failed: exit 3.
// Also: gcc_landscape_cc --judge ROUTE... prints, per route, its noiseless speedup over the
// default and its fraction of the optimum, as JSON lines.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "adapters/gcc_flags.hpp"
#include "gcc_landscape/gcc_landscape.hpp"

using namespace routetune;

namespace {

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string env_or(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

SyntheticLandscape landscape() {
    return gcc_landscape(env_or("LANDSCAPE_KIND", "gcc"), std::strtoull(env_or("LANDSCAPE_SEED", "1").c_str(), nullptr, 10));
}

/// The route a build's argv sets: every argv item that is a value's flag; defaults left out.
Route route_of(const std::vector<std::string>& args) {
    std::map<std::string, std::pair<std::string, std::string>> flags;
    for (const Axis& axis : gcc12_star_tilde().axes) {
        const Knob* knob = gcc12_catalog().find(axis.knob);
        for (std::uint64_t i = 0; knob && i < axis.values.size(); ++i)
            flags.emplace(gcc_flag_for(*knob, axis.values.at(i)), std::make_pair(axis.knob, axis.values.at(i)));
        if (knob && !axis.default_value.empty())
            flags.emplace(gcc_flag_for(*knob, axis.default_value), std::make_pair(axis.knob, axis.default_value));
    }
    std::map<std::string, std::string> defaults;
    for (const Axis& axis : gcc12_star_tilde().axes) defaults[axis.knob] = axis.default_value;
    Route route;
    for (const std::string& arg : args) {
        auto it = flags.find(arg);
        if (it == flags.end()) continue;
        const auto& [knob, value] = it->second;
        if (defaults[knob] == value) route.erase(knob);
        else route.set(knob, value);
    }
    return route;
}

/// text (GCC's `-Q --help=...` states at -O2) with the states route asks for, as GCC would
/// print them after the route's flags: a switch's line `[enabled]`/`[disabled]`, a valued
/// option's line the value. The route check reads these, so a route is seen as built.
std::string with_route_states(const std::string& text, const Route& route) {
    std::istringstream lines(text);
    std::string out;
    for (std::string line; std::getline(lines, line);) {
        std::size_t start = line.find_first_not_of(' ');
        if (line.rfind("  -", 0) != 0 || start == std::string::npos) {
            out += line + "\n";
            continue;
        }
        std::size_t end = line.find_first_of(" \t", start);
        std::string option = line.substr(start, end == std::string::npos ? std::string::npos : end - start);
        bool param = option.rfind("--param=", 0) == 0;
        std::size_t eq = option.find('=', param ? 8 : 0);
        std::string knob = param ? "-param:" + option.substr(8, eq - 8) : option.substr(0, eq);
        auto value = route.get(knob);
        if (!value) {
            out += line + "\n";
            continue;
        }
        bool valued = eq != std::string::npos;
        std::string state = !valued ? (*value == "on" ? "[enabled]" : *value == "off" ? "[disabled]" : *value) : *value;
        out += "  " + option + " \t\t" + state + "\n";
    }
    return out;
}

int discover(const std::vector<std::string>& args) {
    bool values = false;
    for (const auto& arg : args) values |= arg == "-Q";
    std::string folder = gcc12_fixtures();
    if (values)
        std::cout << with_route_states(file_text(folder + "/optimizers-O2.txt") + file_text(folder + "/params.txt") +
                                           file_text(folder + "/target.txt"),
                                       route_of(args));
    else std::cout << file_text(folder + "/descriptions-O2.txt");
    return 0;
}

int run(int argc, char** argv) {  // --run MODE TIME_MS SEED ARTIFACT METRICS [INPUT]
    if (argc < 7) return 2;
    std::string mode = argv[2];
    double time_ms = std::strtod(argv[3], nullptr);
    std::uint64_t seed = std::strtoull(argv[4], nullptr, 10);
    std::string artifact = argv[5], metrics = argv[6], input = argc > 7 ? argv[7] : "";
    if (mode == "run_crashed") std::raise(SIGSEGV);
    if (mode == "run_failed") {
        std::fprintf(stderr, "gcc_landscape_cc: the program failed\n");
        return 3;
    }
    std::uint64_t count = 0;
    std::ifstream(artifact + ".count") >> count;
    std::ofstream(artifact + ".count") << count + 1 << "\n";
    SearchRng rng(seed, count);
    double noise = std::strtod(env_or("LANDSCAPE_NOISE", "0.01").c_str(), nullptr);
    double t = time_ms * std::exp(noise * rng.normal());
    if (metrics != "-") std::ofstream(metrics) << "{\"time_ms\": [" << t << "]}\n";
    double s = 1;
    if (!input.empty()) std::ifstream(input) >> s;
    for (int k = 0; k < 8; ++k) std::printf("%.10g\n", (1 + 0.5 * k) * s * (mode == "inaccurate" ? 1.001 : 1.0));
    return 0;
}

int build(const std::vector<std::string>& args, const std::string& out, const std::string& self) {
    Route route = route_of(args);
    SyntheticLandscape world = landscape();
    Observation obs = world.evaluate(route);
    if (obs.status == Status::BuildFailed) {
        std::fprintf(stderr, "gcc_landscape_cc: error: the landscape fails this build (%s)\n", route.to_string().c_str());
        return 1;
    }
    if (obs.status == Status::BuildCrashed) {
        std::fprintf(stderr, "gcc_landscape_cc: internal compiler error\n");
        std::raise(SIGSEGV);
    }
    std::string mode = obs.status == Status::Ok ? "ok" : std::string(to_string(obs.status));
    double time_ms = obs.status == Status::Inaccurate ? 80.0 : 100.0 * world.true_time(route);  // fast, but wrong
    std::ofstream script(out);
    script << "#!/bin/sh\nexec '" << self << "' --run " << mode << " " << time_ms << " " << std::hash<std::string>{}(route.to_string())
           << " \"$0\" \"$@\"\n";
    script.close();
    return ::chmod(out.c_str(), 0755) == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (argc > 1 && !std::strcmp(argv[1], "--run")) return run(argc, argv);
    if (argc > 1 && !std::strcmp(argv[1], "--judge")) {
        SyntheticLandscape world = landscape();
        double best = world.best_speedup();
        for (int i = 2; i < argc; ++i) {
            Route route = Route::parse(argv[i]);
            double speedup = world.true_time(Route{}) / world.true_time(route);
            std::printf("{\"changes\": %zu, \"speedup\": %.4f, \"optimum\": %.4f, \"fraction\": %.4f}\n", route.assignments().size(),
                        speedup, best, speedup / best);
        }
        return 0;
    }
    if (argc > 2 && !std::strcmp(argv[1], "--explain")) {  // the moves toward the optimum that gain most
        SyntheticLandscape world = landscape();
        Route route = Route::parse(argv[2]), optimum = world.best_route();
        std::vector<std::pair<double, std::string>> moves;
        for (const Axis& axis : world.expression().axes) {
            auto want = optimum.get(axis.knob), held = route.get(axis.knob);
            if (want == held) continue;
            Route with = route;
            if (want) with.set(axis.knob, *want);
            else with.erase(axis.knob);
            moves.emplace_back(std::log(world.true_time(route) / world.true_time(with)),
                               axis.knob + "=" + want.value_or("default") + " (held " + held.value_or("default") + ")");
        }
        std::sort(moves.rbegin(), moves.rend());
        std::printf("log of optimum / route: %.4f\n", std::log(world.true_time(route) / world.true_time(optimum)));
        for (std::size_t i = 0; i < std::min<std::size_t>(moves.size(), 12); ++i) std::printf("  %.4f %s\n", moves[i].first, moves[i].second.c_str());
        return 0;
    }
    std::string out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.rfind("--help=", 0) == 0) return discover(args);
        if (arg == "--version") {
            std::printf("%s\nCopyright (C) 2022 Free Software Foundation, Inc.\n", file_text(gcc12_fixtures() + "/version.txt").c_str());
            return 0;
        }
        if (arg == "-dumpversion") return std::printf("12\n") < 0;
        if (arg == "-dumpfullversion") return std::printf("12.2.0\n") < 0;
        if (arg == "-dumpmachine") return std::printf("x86_64-linux-gnu\n") < 0;
        if (arg == "-o" && i + 1 < args.size()) out = args[i + 1];
        else if (arg.rfind("-o", 0) == 0 && arg.size() > 2) out = arg.substr(2);
    }
    if (out.empty()) {
        std::fprintf(stderr, "gcc_landscape_cc: error: no -o given\n");
        return 1;
    }
    if (out == "/dev/null") return 0;  // the adapter's probe compiles: every flag is accepted
    char self[4096];
    ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 1;
    self[n] = 0;
    return build(args, out, self);
}
