// A study whose candidates build byte-identical binaries, with the real gcc (issue 23): a small
// matmul at -O2, the knobs that leave its binary byte-identical to the default's (checked here
// with this gcc, as cmp would: which ones do depends on its version) and one knob that changes
// it. Every run goes through a script that appends the sha256 of the binary it runs to
// runs.log beside the spec, so a test counts how often each artifact ran. min_gain is far out
// of reach: no route is confirmed, and every run in the log is a search-phase run. Shared by
// the SQLite test (e2e/same_artifact_cli_test) and the PostgreSQL one (pg/).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "e2e/cli_harness.hpp"
#include "util/sha256.hpp"

namespace routetune::e2e {

/// The spec's warm-ups and repeats: a measured artifact runs kWarmup + kRepeats times.
inline constexpr int kWarmup = 1;
inline constexpr int kRepeats = 3;

/// The program: a 64x64 matmul, four times, printing the sum.
inline constexpr const char* kMatmul = R"(#include <stdio.h>
#define N 64
static double a[N][N], b[N][N], c[N][N];
int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (double)((i * 7 + j) % 13) / 7.0;
            b[i][j] = (double)((i + j * 3) % 11) / 5.0;
        }
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < N; i++)
            for (int k = 0; k < N; k++) {
                double x = a[i][k];
                for (int j = 0; j < N; j++) c[i][j] += x * b[k][j];
            }
    double sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) sum += c[i][j];
    printf("%.6f\n", sum);
    return 0;
}
)";

/// run.sh: logs the sha256 of the binary it runs, sleeps $RUN_SLEEP_S when set (a slow run, so
/// that two workers' measurements would overlap), then runs it.
inline constexpr const char* kCountingRun = R"(sha256sum "$1" | cut -c1-64 >> "$(dirname "$0")/runs.log"
[ -z "${RUN_SLEEP_S:-}" ] || sleep "$RUN_SLEEP_S"
exec "$1"
)";

/// The flag that turns gcc's knob -fNAME away from its state at -O2 ("-fNAME" or "-fno-NAME"),
/// with the route value that asks for it; from gcc's own report.
struct Flip {
    std::string knob;   ///< "-fgcse-sm"
    std::string value;  ///< "on" or "off"
    std::string flag;   ///< "-fgcse-sm" or "-fno-gcse-sm"
};

/// Whether each -f knob is enabled at -O2, as `gcc -O2 -Q --help=optimizers` says.
inline std::map<std::string, bool> enabled_at_o2(const fs::path& dir) {
    ProcessSpec spec;
    spec.argv = {"gcc", "-O2", "-Q", "--help=optimizers"};
    spec.cwd = dir;
    ProcessResult r = run_process(spec);
    std::map<std::string, bool> enabled;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line);
        std::string name, state;
        if (words >> name >> state && name.rfind("-f", 0) == 0) enabled[name] = state == "[enabled]";
    }
    return enabled;
}

/// Compiles dir/matmul.c at -O2 with flags to dir/out; returns the binary's sha256.
inline std::string compile(const fs::path& dir, const std::vector<std::string>& flags, const std::string& out) {
    ProcessSpec spec;
    spec.argv = {"gcc", "-O2"};
    spec.argv.insert(spec.argv.end(), flags.begin(), flags.end());
    spec.argv.insert(spec.argv.end(), {"matmul.c", "-o", out});
    spec.cwd = dir;
    EXPECT_TRUE(run_process(spec).succeeded()) << out;
    return sha256_file(dir / out).value_or("");
}

/// The study folder and what this gcc does with the knobs.
struct KnobStudy {
    fs::path dir;
    std::vector<Flip> identical;  ///< binaries byte-identical to the default's
    Flip changing;                ///< a binary of its own
    std::string default_sha;
};

/// A fresh folder with matmul.c and run.sh, and the knobs sorted by what they do to the binary.
inline KnobStudy prepare() {
    KnobStudy s;
    s.dir = make_scratch_folder(fs::temp_directory_path(), "routetune-sameas-");
    write_file(s.dir / "matmul.c", kMatmul);
    write_file(s.dir / "run.sh", kCountingRun);
    s.default_sha = compile(s.dir, {}, "default.bin");
    auto enabled = enabled_at_o2(s.dir);
    auto flip = [&](const std::string& knob) {
        bool on = enabled.count(knob) && enabled.at(knob);
        return Flip{knob, on ? "off" : "on", on ? "-fno-" + knob.substr(2) : knob};
    };
    for (const char* knob : {"-ftree-slsr", "-fgcse-las", "-fgcse-sm", "-fsplit-paths", "-fipa-pta", "-fjump-tables",
                             "-fcode-hoisting"}) {
        Flip f = flip(knob);
        if (compile(s.dir, {f.flag}, "probe.bin") == s.default_sha) s.identical.push_back(f);  // what cmp would say
    }
    for (const char* knob : {"-funroll-loops", "-fpeel-loops", "-ftree-loop-distribution"}) {
        Flip f = flip(knob);
        if (compile(s.dir, {f.flag}, "probe.bin") != s.default_sha) {
            s.changing = f;
            break;
        }
    }
    return s;
}

/// The spec, runs through run.sh: mode over routes, by default fast mode over the identical
/// knobs and the changing one.
inline std::string spec_text(const KnobStudy& s, const std::string& mode = "fast", std::string routes = "") {
    if (routes.empty()) {
        for (const Flip& f : s.identical) routes += f.knob + "=[on|off] ";  // fast tries the value away from -O2's
        routes += s.changing.knob + "=[on|off]";
    }
    return "name = \"sameas\"\n[compiler]\nadapter = \"gcc\"\nbase = [\"-O2\"]\n"
           "[build]\ncommand = [\"{compiler}\", \"{flags}\", \"matmul.c\", \"-o\", \"{artifact}\"]\n"
           "[run]\ncommand = [\"sh\", \"{spec_dir}/run.sh\", \"{artifact}\"]\n"
           "[timing]\nwarmup = " + std::to_string(kWarmup) + "\nrepeats = " + std::to_string(kRepeats) +
           "\nmin_gain = 10\n[[case]]\nname = \"m\"\n[search]\nmode = \"" + mode + "\"\nroutes = \"" + routes + "\"\n";
}

/// The route fast mode evaluates for f.
inline std::string route_of(const Flip& f) { return f.knob + "=" + f.value; }

/// Checks runs (runs_by_sha) against one measurement per artifact: each binary other than the
/// default's kWarmup + kRepeats runs; the default's as many for the default, as many again for
/// its A/A pairs and as many beside each of the measured candidates (paired timing).
inline void expect_each_artifact_measured_once(const std::map<std::string, int>& runs, const std::string& default_sha,
                                               int measured_candidates) {
    for (const auto& [sha, n] : runs) {
        int expected = (sha == default_sha ? 2 + measured_candidates : 1) * (kWarmup + kRepeats);
        EXPECT_EQ(n, expected) << sha << (sha == default_sha ? " (the default's binary)" : "");
    }
}

/// How many times each artifact ran (runs.log in dir: one sha256 a line).
inline std::map<std::string, int> runs_by_sha(const fs::path& dir) {
    std::map<std::string, int> runs;
    std::istringstream log(read_file(dir / "runs.log").value_or(""));
    for (std::string sha; std::getline(log, sha);) ++runs[sha];
    return runs;
}

}  // namespace routetune::e2e
