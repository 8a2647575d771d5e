"""Does a build running on the same GPU move a warm measurement? (issue 26: a study's search
measurements overlap its builds, and an Inductor build runs the model and, with
max_autotune_gemm=on, benchmarks kernels on the GPU.) Needs PyTorch and a GPU;
scripts/gpu-issue26.sh 15 runs it.

  python3 bench/beside_build_timing.py MODEL_DIR OUTDIR TRIALS BUILD_TIMEOUT_S ROUTE [ROUTE...]

builds the default route once (examples/inductor_common/workload.py, OUTDIR/work/default), starts
one warm measurement process over it (python/routetune_measure.py, driven as routetune drives it:
bench/warm_measure_bench.py's WarmProcess) and measures the default there twice (its recording,
then its kept compile). Then, TRIALS times, for each ROUTE (the order reversed every other
trial): IDLE requests of the default with nothing else running, then requests of the default,
back to back, while ROUTE builds beside them from an empty cache of its own (a new process, as
routetune's builds are; cut at BUILD_TIMEOUT_S, its process group killed); IDLE requests again after the last trial. Each
request is the study's measurement: 50 timed calls, their median.

Prints one TSV line per request (also OUTDIR/beside_build.tsv): trial, route built beside ("-"
when idle), seconds since the first trial began, the request's wall s, its median ms, its path.
Then, per trial and route, the median of the medians measured beside the build against the
median of the idle ones just before and just after it (their ratio: above 1, slower beside the
build), the build's wall and whether it was cut, and how far apart two back-to-back requests read
beside it (pair_spread: what a paired search figure of one request each can be off by); per route, the median and range of that ratio
over the trials; and, as the noise to read them against, the same ratio between consecutive idle
blocks.
"""

import os
import signal
import statistics
import subprocess
import sys
import time

from warm_measure_bench import WORKLOAD, WarmProcess, environment, metrics_of, request_for

IDLE = 8  # requests per idle block


def measure(process, request, rows, trial, beside, began, table):
    """One request of the default; appends and prints its row."""
    started = time.time()
    reply = process.run(request)
    wall_s = time.time() - started
    _, median_ms = metrics_of(request["metrics"])
    row = (trial, beside, time.time() - began, wall_s, median_ms, reply.get("path", ""))
    rows.append(row)
    line = "%s\t%s\t%.1f\t%.3f\t%.4f\t%s" % row
    print(line, flush=True)
    table.write(line + "\n")


def idle_block(process, request, rows, trial, began, table):
    """IDLE requests with nothing beside them; returns their medians."""
    first = len(rows)
    for _ in range(IDLE):
        measure(process, request, rows, trial, "-", began, table)
    return [row[4] for row in rows[first:]]


def beside_build(process, request, rows, trial, route, work, timeout_s, began, table):
    """Requests back to back while route builds from an empty cache in work; returns (their
    medians, the build's wall s, whether it was cut at timeout_s)."""
    os.makedirs(work, exist_ok=True)
    build = subprocess.Popen([sys.executable, WORKLOAD, "build", request["cwd"], os.path.join(work, "artifact")],
                             env=environment(work, route), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    started, first = time.time(), len(rows)
    while build.poll() is None and time.time() - started < timeout_s:
        measure(process, request, rows, trial, route or "(default)", began, table)
    cut = build.poll() is None
    if cut:
        # Its process group: Inductor's compile and autotune workers with it, which would
        # otherwise go on beside the idle requests that follow.
        os.killpg(build.pid, signal.SIGKILL)
    build.wait()
    return [row[4] for row in rows[first:]], time.time() - started, cut


def pair_spread(blocks):
    """How far apart two back-to-back requests of the same build read, as a paired search figure
    would: over each block of requests (a list of their medians), each request's median over the
    one before it in its block; the 5th and 95th percentiles of those ratios and the share more than
    5% from 1; None under 2 ratios."""
    ratios = sorted(later / earlier for medians in blocks for earlier, later in zip(medians, medians[1:]))
    if len(ratios) < 2:
        return None
    at = lambda share: ratios[int(round(share * (len(ratios) - 1)))]
    return at(0.05), at(0.95), sum(abs(ratio - 1) > 0.05 for ratio in ratios) / len(ratios)


def ratio_line(label, beside, before, after):
    """median(beside) / median(before + after), with the counts it rests on."""
    idle = before + after
    if not beside or not idle:
        return "%s: no requests to compare" % label, None
    ratio = statistics.median(beside) / statistics.median(idle)
    return ("%s: beside %.4f ms (%d requests), idle %.4f ms (%d), ratio %.4f"
            % (label, statistics.median(beside), len(beside), statistics.median(idle), len(idle), ratio)), ratio


def main(argv):
    if len(argv) < 6:
        sys.stderr.write(__doc__)
        return 2
    model_dir, outdir, trials, timeout_s, routes = argv[1], argv[2], int(argv[3]), float(argv[4]), argv[5:]
    os.makedirs(outdir, exist_ok=True)
    default_work = os.path.join(outdir, "work", "default")
    os.makedirs(default_work, exist_ok=True)
    subprocess.run([sys.executable, WORKLOAD, "build", model_dir, os.path.join(default_work, "artifact")],
                   env=environment(default_work, ""), check=True)
    request = request_for(model_dir, (environment(default_work, ""), os.path.join(default_work, "artifact"), default_work), "")
    process = WarmProcess(os.path.join(outdir, "warm"), model_dir, environment(default_work, ""))
    summary = []
    with open(os.path.join(outdir, "beside_build.tsv"), "w", encoding="utf-8") as table:
        rows, began = [], time.time()
        for _ in range(2):
            measure(process, request, rows, "setup", "-", began, table)
        idle = [idle_block(process, request, rows, 0, began, table)]
        results = {route: [] for route in routes}
        for trial in range(trials):
            order = routes if trial % 2 == 0 else list(reversed(routes))
            for index, route in enumerate(order):
                work = os.path.join(outdir, "work", "t%d-%d" % (trial, index))
                beside, wall_s, cut = beside_build(process, request, rows, trial, route, work, timeout_s, began, table)
                idle.append(idle_block(process, request, rows, trial, began, table))
                line, ratio = ratio_line("trial %d %s" % (trial, route or "(default)"), beside, idle[-2], idle[-1])
                spread = pair_spread([beside])
                pairs = ("; back-to-back ratios beside it %.4f-%.4f (5th-95th percentile), %.1f%% over 5%% from 1"
                         % (spread[0], spread[1], 100 * spread[2])) if spread else ""
                summary.append("%s; build %.1f s%s%s" % (line, wall_s, ", cut" if cut else "", pairs))
                print(summary[-1], flush=True)
                if ratio is not None:
                    results[route].append(ratio)
        for route, ratios in results.items():
            if ratios:
                summary.append("%s beside/idle: median %.4f, range %.4f-%.4f over %d trials" % (
                    route or "(default)", statistics.median(ratios), min(ratios), max(ratios), len(ratios)))
                print(summary[-1], flush=True)
        quiet = pair_spread(idle)
        if quiet:
            summary.append("back-to-back ratios idle (within each idle block): %.4f-%.4f, %.1f%% over 5%% from 1"
                           % (quiet[0], quiet[1], 100 * quiet[2]))
            print(summary[-1], flush=True)
        noise = [statistics.median(later) / statistics.median(earlier) for earlier, later in zip(idle, idle[1:])]
        summary.append("idle/idle (consecutive idle blocks): median %.4f, range %.4f-%.4f over %d pairs" % (
            statistics.median(noise), min(noise), max(noise), len(noise)))
        print(summary[-1], flush=True)
        for line in summary:
            table.write(line + "\n")
    process.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
