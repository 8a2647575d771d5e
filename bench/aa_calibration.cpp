// A/A calibration of the search phase's paired intervals (docs/design.md, "Evidence that cannot
// lie"): two byte-identical binaries, the default's and a candidate's, measured with the
// real Evaluator (paired rounds, D C / C D alternating) again and again while 0, 1 or 2 busy
// loops (processes spinning on a core) share the machine. Every interval that excludes 1.0 is
// a false gain or loss; the share of them must be at most 5% at every load. The binomial 95%
// interval of that share is Clopper-Pearson's (exact: bisection on the binomial CDF). For
// comparison the same candidate samples are also judged the unpaired way the search used to:
// against the default measured once, before the first interval of the load. Every interval
// copies the binary afresh into both folders (new files each time).
//   aa_calibration [intervals=200] [loads=0,1,2] [source=process] [repeats=7] [warmup=1]
// The program is examples/matmul/kernel.c at -O2 on its odd_sizes input (about 10 ms a run);
// it is built once and copied into both scratch folders, so the two artifacts are identical.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "eval/evaluator.hpp"
#include "util/files.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"

namespace routetune {
namespace {

namespace fs = std::filesystem;

// An adapter with no knobs: every route builds the same command.
class CopyAdapter : public Adapter {
public:
    std::string name() const override { return "copy"; }
    Catalog discover() override { return {}; }
    AppliedRoute apply(const Route&, const Catalog&) const override { return {}; }
};

// Processes spinning on a core until the object goes (or the bench dies: PR_SET_PDEATHSIG).
class BusyLoops {
public:
    explicit BusyLoops(int count) {
        for (int i = 0; i < count; ++i) {
            pid_t pid = fork();
            if (pid == 0) {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                volatile unsigned long spin = 0;
                for (;;) spin = spin + 1;
            }
            if (pid > 0) pids_.push_back(pid);
        }
    }
    ~BusyLoops() {
        for (pid_t pid : pids_) kill(pid, SIGKILL);
        for (pid_t pid : pids_) waitpid(pid, nullptr, 0);
    }
    BusyLoops(const BusyLoops&) = delete;
    BusyLoops& operator=(const BusyLoops&) = delete;

private:
    std::vector<pid_t> pids_;
};

// P(Binomial(n, p) <= k).
double binomial_cdf(int k, int n, double p) {
    if (k < 0) return 0;
    if (k >= n) return 1;
    double sum = 0;
    for (int i = 0; i <= k; ++i)
        sum += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) + i * std::log(p) +
                        (n - i) * std::log1p(-p));
    return sum;
}

// The p in [0, 1] where f, falling in p, crosses target (bisection).
template <typename F>
double solve(F f, double target) {
    double low = 0, high = 1;
    for (int i = 0; i < 100; ++i) {
        double mid = (low + high) / 2;
        (f(mid) > target ? low : high) = mid;
    }
    return (low + high) / 2;
}

// Clopper-Pearson 95% interval of a binomial share k / n: P(X >= k | low) = 0.025 and
// P(X <= k | high) = 0.025.
std::pair<double, double> clopper_pearson(int k, int n) {
    double low = k == 0 ? 0 : solve([&](double p) { return binomial_cdf(k - 1, n, p); }, 0.975);
    double high = k == n ? 1 : solve([&](double p) { return binomial_cdf(k, n, p); }, 0.025);
    return {low, high};
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

bool excludes_one(double low, double high) { return low > 1 || high < 1; }

struct Tally {
    int intervals = 0;
    int paired_out = 0;
    int paired_above = 0;  ///< of paired_out, those whose lower end is above 1
    int unpaired_out = 0;
    std::vector<double> widths;
};

void print_row(int load, const Tally& t) {
    auto [low, high] = clopper_pearson(t.paired_out, t.intervals);
    std::vector<double> widths = t.widths;
    std::sort(widths.begin(), widths.end());
    double width = widths.empty() ? NAN : widths[widths.size() / 2];
    auto [ulow, uhigh] = clopper_pearson(t.unpaired_out, t.intervals);
    std::printf("| %d | %d | %d (%.1f%%) [%.1f%%, %.1f%%] | %d / %d | %.3f | %d (%.1f%%) [%.1f%%, %.1f%%] |\n", load,
                t.intervals, t.paired_out, 100.0 * t.paired_out / t.intervals, 100 * low, 100 * high, t.paired_above,
                t.paired_out - t.paired_above, width, t.unpaired_out, 100.0 * t.unpaired_out / t.intervals, 100 * ulow,
                100 * uhigh);
    std::fflush(stdout);
}

// The default's and the candidate's builds: the same binary copied into two scratch folders.
std::pair<BuiltCandidate, BuiltCandidate> identical_builds(const Evaluator& evaluator) {
    BuiltCandidate a = evaluator.build(Route{}, "default");
    BuiltCandidate b = evaluator.build(Route::parse("-copy=b"), "aa");
    if (a.evaluation.status != Status::Pending || b.evaluation.status != Status::Pending ||
        a.evaluation.artifact_sha256 != b.evaluation.artifact_sha256) {
        std::fprintf(stderr, "aa_calibration: the two builds are not byte-identical artifacts\n");
        std::exit(1);
    }
    return {a, b};
}

// Each interval is a fresh pair of copies (new files, so whatever their placement in memory
// does is drawn anew and the intervals are independent, as the binomial interval assumes);
// the unpaired design compares each candidate with a default measured once, at the start.
Tally calibrate(const Evaluator& evaluator, int load, int intervals) {
    BusyLoops loops(load);
    RunBaseline alone;
    Evaluation first = evaluator.measure(identical_builds(evaluator).first, alone);
    Tally tally;
    for (int i = 0; i < intervals; ++i) {
        auto [a, b] = identical_builds(evaluator);
        RunBaseline paired;
        paired.paired_default = a;
        Evaluation e = evaluator.measure(b, paired);
        std::optional<SpeedupEstimate> s = paired_speedup(e.paired);
        if (e.status != Status::Ok || !s) {
            std::fprintf(stderr, "aa_calibration: interval %d failed: %s\n", i, e.message.c_str());
            continue;
        }
        ++tally.intervals;
        tally.paired_out += excludes_one(s->ci_low, s->ci_high);
        tally.paired_above += s->ci_low > 1;
        tally.widths.push_back(s->ci_high - s->ci_low);
        Evaluation unpaired = e;
        unpaired.paired = {};
        std::optional<SpeedupEstimate> u = speedup_against_default(unpaired, first);
        tally.unpaired_out += u && excludes_one(u->ci_low, u->ci_high);
    }
    return tally;
}

}  // namespace
}  // namespace routetune

int main(int argc, char** argv) {
    using namespace routetune;
    int intervals = argc > 1 ? std::atoi(argv[1]) : 200;
    std::string loads = argc > 2 ? argv[2] : "0,1,2";
    std::string source = argc > 3 ? argv[3] : "process";
    int repeats = argc > 4 ? std::atoi(argv[4]) : 7;
    int warmup = argc > 5 ? std::atoi(argv[5]) : 1;
    fs::path kernel = fs::path(ROUTETUNE_SOURCE_DIR) / "examples/matmul/kernel.c";
    fs::path input = fs::path(ROUTETUNE_SOURCE_DIR) / "examples/matmul/data/odd_sizes.txt";
    fs::path dir = make_scratch_folder(fs::temp_directory_path(), "routetune-aa-");
    fs::path program = dir / "kernel";
    ProcessResult built = run_process(ProcessSpec{{"gcc", "-O2", kernel.string(), "-o", program.string(), "-lm"}});
    if (!built.succeeded()) {
        std::fprintf(stderr, "aa_calibration: gcc failed: %s\n", built.err.c_str());
        return 1;
    }
    Spec spec;
    spec.dir = dir;
    spec.name = "aa";
    spec.build.command = {"cp", program.string(), "{artifact}"};
    spec.build.timeout_s = 60;
    spec.run.command = {"{artifact}", input.string(), "{output}", "{metrics}"};
    spec.run.timeout_s = 60;
    spec.timing.source = source;
    spec.timing.repeats = repeats;
    spec.timing.warmup = warmup;
    spec.cases = {CaseSpec{}};
    spec.cases[0].name = "odd_sizes";
    CopyAdapter adapter;
    Catalog catalog;
    Evaluator evaluator(spec, adapter, catalog, make_study_paths(dir, "aa", dir / "aa.sqlite"));
    std::printf("# aa_calibration: %d intervals per load, source %s, %d warm-up + %d paired rounds, %ld cores\n",
                intervals, source.c_str(), warmup, repeats, sysconf(_SC_NPROCESSORS_ONLN));
    std::printf("# load average before: %s\n", load_average().c_str());
    std::printf("| busy loops | intervals | paired: excluding 1.0 [95%% CI] | above / below 1 | paired: median CI width | "
                "unpaired (old design): excluding 1.0 [95%% CI] |\n| --- | --- | --- | --- | --- | --- |\n");
    std::stringstream list(loads);
    for (std::string item; std::getline(list, item, ',');) {
        int load = std::atoi(item.c_str());
        print_row(load, calibrate(evaluator, load, intervals));
    }
    std::printf("# load average after: %s\n", load_average().c_str());
    remove_tree_quietly(dir);
    return 0;
}
