// Expansion benchmark: candidates per second for fast and full, the time to parse and count a
// huge expression exactly, and the peak RSS of a child process that expands 10^6 full
// candidates of a 10^30 space (against a child that only parses, so the difference is what
// expansion costs). Every timing is the median of REPEATS runs, with its range (min..max). Run: build/bench/expansion_bench
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "routetune/expression.hpp"

using namespace routetune;

namespace {

constexpr int repeats = 7;

Knob int_knob(const std::string& name, std::int64_t min, std::int64_t max, std::string default_value) {
    Knob knob;
    knob.name = name;
    knob.type = KnobType::Int;
    knob.min = min;
    knob.max = max;
    knob.default_value = std::move(default_value);
    return knob;
}

Catalog int_catalog(int knobs, std::int64_t max, const std::string& default_value) {
    Catalog catalog;
    for (int i = 0; i < knobs; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "-param:k%04d", i);
        catalog.add(int_knob(name, 0, max, default_value));
    }
    return catalog;
}

// 2000 knobs: a quarter each bool, enum of 5, int with a default, int without.
Catalog mixed_catalog() {
    Catalog catalog;
    for (int i = 0; i < 2000; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "-k%04d", i);
        Knob knob;
        switch (i % 4) {
            case 0: knob.type = KnobType::Bool; knob.values = {"on", "off"}; knob.default_value = "off"; break;
            case 1: knob.type = KnobType::Enum; knob.values = {"a", "b", "c", "d", "e"}; knob.default_value = "a"; break;
            case 2: knob = int_knob(name, 0, 65536, "64"); break;
            case 3: knob = int_knob(name, 1, 1000000, ""); break;
        }
        knob.name = name;
        catalog.add(knob);
    }
    return catalog;
}

// The range (min..max) of the last median_seconds() sample, printed beside each median.
double last_min_s = 0, last_max_s = 0;

double median_seconds(const std::function<void()>& body) {
    std::vector<double> samples;
    for (int r = 0; r < repeats; ++r) {
        auto start = std::chrono::steady_clock::now();
        body();
        samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(samples.begin(), samples.end());
    last_min_s = samples.front();
    last_max_s = samples.back();
    return samples[samples.size() / 2];
}

void print_range() { std::printf("    range %.6f .. %.6f s\n", last_min_s, last_max_s); }

std::uint64_t drain(CandidateStream& stream, std::uint64_t limit) {
    std::uint64_t seen = 0, assignments = 0;
    while (seen < limit) {
        auto route = stream.next();
        if (!route) break;
        assignments += route->assignments().size();
        ++seen;
    }
    if (assignments == 0 && seen > 1) std::puts("");
    return seen;
}

// Peak RSS (KiB) of a child that parses the 10^30 expression and expands `count` candidates.
long child_peak_rss_kib(std::uint64_t count) {
    pid_t pid = fork();
    if (pid == 0) {
        Catalog catalog = int_catalog(30, 9, "0");
        auto expression = parse_expression("-param:*=*", catalog);
        auto stream = expand(expression, ExpansionMode::Full);
        _exit(drain(*stream, count) == count ? 0 : 1);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    return usage.ru_maxrss;
}

}  // namespace

int main() {
    std::printf("expansion_bench: medians of %d repetitions\n", repeats);

    const std::uint64_t n = 1000000;
    Catalog wide = int_catalog(100, 99999, "50000");
    auto fast_expression = parse_expression("-param:*=*", wide);
    double fast_s = median_seconds([&] {
        auto stream = expand(fast_expression, ExpansionMode::Fast);
        drain(*stream, n);
    });
    std::printf("fast: %llu candidates (100 knobs x 100000 values) in %.3f s = %.0f candidates/s\n",
                static_cast<unsigned long long>(n), fast_s, n / fast_s);
    print_range();

    for (int knobs : {10, 30}) {
        Catalog deep = int_catalog(knobs, 9, "0");
        auto full_expression = parse_expression("-param:*=*", deep);
        double full_s = median_seconds([&] {
            auto stream = expand(full_expression, ExpansionMode::Full);
            drain(*stream, n);
        });
        std::printf("full: %llu candidates of %d knobs each (space 10^%d) in %.3f s = %.0f candidates/s\n",
                    static_cast<unsigned long long>(n), knobs, knobs, full_s, n / full_s);
        print_range();
    }

    Catalog big = mixed_catalog();
    std::string digits;
    double parse_s = median_seconds([&] { parse_expression("*=~", big); });
    double parse_min = last_min_s, parse_max = last_max_s;
    auto huge = parse_expression("*=~", big);
    double count_s = median_seconds([&] { digits = count_candidates(huge, ExpansionMode::Full).to_string(); });
    std::printf("count: '*=~' over 2000 knobs: parse %.6f s, exact full count (%zu digits) %.6f s; fast count %s\n",
                parse_s, digits.size(), count_s, count_candidates(huge, ExpansionMode::Fast).to_string().c_str());
    std::printf("    parse range %.6f .. %.6f s; count range %.6f .. %.6f s\n", parse_min, parse_max, last_min_s, last_max_s);

    std::vector<long> idle, busy;
    for (int r = 0; r < repeats; ++r) {
        idle.push_back(child_peak_rss_kib(1));
        busy.push_back(child_peak_rss_kib(n));
    }
    std::sort(idle.begin(), idle.end());
    std::sort(busy.begin(), busy.end());
    std::printf("peak RSS: parse + 1 candidate %ld KiB; parse + %llu full candidates of a 10^30 space %ld KiB"
                " (ranges %ld..%ld, %ld..%ld)\n",
                idle[repeats / 2], static_cast<unsigned long long>(n), busy[repeats / 2], idle.front(), idle.back(),
                busy.front(), busy.back());
    return 0;
}
