"""The cost of one Inductor measurement three ways, and the warm process's A/A check (issue 26,
item 2). Needs PyTorch and a GPU; scripts/gpu-issue26.sh runs it on the H200 (figures of
2026-12-05 in docs/benchmarks.md, issue 26).

  python3 bench/warm_measure_bench.py MODEL_DIR OUTDIR [ROUTE [OTHER_ROUTE...]]

builds ROUTE (default: the default route, "") and each OTHER_ROUTE once, all at once, with
examples/inductor_common/workload.py into OUTDIR/work/rN (each its own TORCHINDUCTOR_CACHE_DIR),
then measures them, warm first, as each line is printed at once (a timeout cuts the slowest
modes, fresh and forked, last):

  fresh    `python3 workload.py run ...`, a new process each time (twice)
  forked   through routetune's fork server, forked.py (twice; the first starts the server)
  warm     python/routetune_measure.py over workload.py, spoken to over its two pipes exactly as
           routetune does (docs/measurement-protocol.md): two tracing processes
           (ROUTETUNE_WARM_CAPTURE=0: every request traces the model again), A and B; A measures the
           first build twice, then each other build, the second again and the first last (so the
           first request of a build is timed both in a new process and in one that has served
           others), B the first build once: the A/A check (same build, twice in one process and
           in two); C as A, with TORCHINDUCTOR_COMPILE_THREADS=1 (kernels loaded in the process,
           not through Inductor's compile workers); D as A, with ROUTETUNE_WARM_CAPTURE=1 (the
           first request's graph recorded, each later build compiled from it: workload.py)
           WARM_BENCH_PROCESSES picks them (default "A B C"); WARM_BENCH_FRESH=0 skips fresh and
           forked. A warm request that fails is a "warm-failed" line with its error.

and prints one TSV line per measurement (also to OUTDIR/warm_bench.tsv): mode, process, build
(rN), wall_s (the whole measurement as the caller sees it), gpu_s (the sum of the 50 timed
calls), first_call_s (the compile from the cache and the first call), median_ms, code_sha256
(warm only), the ratio wall_s / (2 gpu_s + 1 s), which issue 26 asks to be at most 1, and (warm
only) code_load_s and modules: the seconds spent loading the build's generated modules (their
kernels included) within first_call_s, and how many were loaded; reset_s, the Dynamo reset and
config restore before the request; compile_phases_s, the seconds each of PyTorch's timed compile
phases took within the request (torch._dynamo.utils.compilation_time_metrics: Dynamo's trace,
the backend, the cache lookups), to tell where a first call's time goes; path (warm only: "captured" when
the request compiled the graph traced once, "dynamo" when it traced again); output_diff (warm
only: the largest absolute difference from the build's first warm output in this bench); caches
(warm only: the compile caches' hits and misses within the request, PyTorch's counters) and
capture_refused (warm only: why the trace-once path did not time this request, where it did not); with
ROUTETUNE_WARM_PROFILE_COMPILE=1, each captured request's compile is profiled and its 30 costliest
calls (cumulative s, own s, calls, where) follow its line as "  profile" lines. With
WARM_BENCH_KEPT_AB=ROUNDS, only kept_against_compiled runs (a build's kept compile against a new
compile of it, alternating in one process). With
ROUTETUNE_WARM_CACHE_KEYS=1 and processes D and A, the parts of AOTAutograd's cache key that
differ between them for each build go to OUTDIR/cache_key_diff.txt.
"""

import json
import os
import statistics
import subprocess
import sys
import time

from measurement_cost import target_ratio

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORKLOAD = os.path.join(ROOT, "examples", "inductor_common", "workload.py")
FORKED = os.path.join(ROOT, "examples", "inductor_common", "forked.py")
MEASURE = os.path.join(ROOT, "python", "routetune_measure.py")


def environment(work, route):
    env = dict(os.environ)
    env.update(ROUTETUNE_INDUCTOR_ROUTE=route, ROUTETUNE_PYTHON_DIR=os.path.join(ROOT, "python"),
               TORCHINDUCTOR_CACHE_DIR=os.path.join(work, "inductor-cache"))
    return env


def metrics_of(path):
    with open(path, encoding="utf-8") as handle:
        times = json.load(handle)["time_ms"]
    return sum(times) / 1000.0, statistics.median(times)


class WarmProcess:
    """One routetune_measure.py process and its two pipes, driven as routetune drives it."""

    def __init__(self, folder, model_dir, env):
        os.makedirs(folder, exist_ok=True)
        self.requests_path = os.path.join(folder, "requests")
        self.replies_path = os.path.join(folder, "replies")
        for path in (self.requests_path, self.replies_path):
            if not os.path.exists(path):
                os.mkfifo(path, 0o600)
        env = dict(env, ROUTETUNE_MEASURE_REQUESTS=self.requests_path, ROUTETUNE_MEASURE_REPLIES=self.replies_path)
        self.log = open(os.path.join(folder, "stdout.log"), "w")
        started = time.time()
        self.process = subprocess.Popen([sys.executable, MEASURE, WORKLOAD, model_dir], env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT)
        # Both ends opened read-write, as routetune opens them (measurement_process.cpp): opening a
        # named pipe for writing alone blocks until the other side opens it for reading.
        self.requests = os.fdopen(os.open(self.requests_path, os.O_RDWR), "w", encoding="utf-8")
        self.replies = os.fdopen(os.open(self.replies_path, os.O_RDWR), encoding="utf-8")
        hello = json.loads(self.replies.readline())
        self.start_s = time.time() - started
        self.pid = hello["pid"]
        self.next_id = 1

    def run(self, request):
        request = dict(request, op="run", id=self.next_id)
        self.next_id += 1
        self.requests.write(json.dumps(request) + "\n")
        self.requests.flush()
        reply = json.loads(self.replies.readline())
        if reply.get("status") != "ok":
            raise RuntimeError("warm process %d: %s" % (self.pid, reply))
        return reply

    def close(self):
        self.requests.write(json.dumps({"op": "quit", "id": self.next_id}) + "\n")
        self.requests.flush()
        self.process.wait(timeout=60)


def show(row, table):
    """Prints one measurement's TSV line at once (and into TABLE), so a run cut off still tells."""
    mode, process, build, wall_s, gpu_s, first_call_s, median_ms, code = row[:8]
    loads = row[8] if len(row) > 8 else {}
    ratio = "%.2f" % target_ratio(wall_s, gpu_s) if gpu_s else ""
    text = "\t".join([mode, process, build, "%.4f" % wall_s, "%.4f" % gpu_s, "%.4f" % first_call_s, "%.4f" % median_ms,
                      code, ratio, "%.4f" % loads["code_load_s"] if "code_load_s" in loads else "",
                      str(loads.get("modules_loaded", "")), "%.4f" % loads["reset_s"] if "reset_s" in loads else "",
                      json.dumps(loads["compile_phases_s"], sort_keys=True) if "compile_phases_s" in loads else "",
                      loads.get("path", ""), "%.3g" % loads["output_diff"] if "output_diff" in loads else "",
                      json.dumps(loads["caches"], sort_keys=True) if "caches" in loads else "",
                      loads.get("capture_refused", "")[:300]])
    print(text, flush=True)
    table.write(text + "\n")
    for line in loads.get("compile_profile", []):
        print("  profile\t" + line, flush=True)
        table.write("  profile\t" + line + "\n")
    table.flush()


def output_difference(first_outputs, index, path):
    """The largest absolute difference between build index's output at path and its first warm
    output of this bench (kept in first_outputs; 0 for the first): do all processes and paths
    compute the same?"""
    import numpy

    output = numpy.load(path)
    first = first_outputs.setdefault(index, output)
    return float(numpy.max(numpy.abs(output.astype(numpy.float64) - first.astype(numpy.float64))))


def compare_cache_keys(key_details, path):
    """With ROUTETUNE_WARM_CACHE_KEYS=1: for each build that processes A (Dynamo's path, which
    hits the build's cache) and D (the trace-once path) both compiled, the parts of AOTAutograd's
    cache key of their first request that differ, written to path and printed."""
    lines = []
    for (name, index), details in sorted(key_details.items()):
        other = key_details.get(("A", index))
        if name != "D" or other is None or not details or not other:
            continue
        ours, theirs = details[0]["details"], other[0]["details"]
        lines.append("r%d: keys %s (D) and %s (A)" % (index, details[0]["key"], other[0]["key"]))
        lines += ["  only D: " + line for line in ours if line not in theirs]
        lines += ["  only A: " + line for line in theirs if line not in ours]
    if lines:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        print("\n".join(lines[:40]), flush=True)


def build_all(model_dir, outdir, routes, table):
    """Builds every route at once, each in OUTDIR/work/rN with its own cache folder (as routetune's
    parallel builds do); returns [(env, artifact, work)] in the order of routes."""
    builds, running = [], []
    started = time.time()
    for index, route in enumerate(routes):
        work = os.path.join(outdir, "work", "r%d" % index)
        os.makedirs(work, exist_ok=True)
        env, artifact = environment(work, route), os.path.join(work, "artifact")
        builds.append((env, artifact, work))
        running.append(subprocess.Popen([sys.executable, WORKLOAD, "build", model_dir, artifact], env=env))
    for index, process in enumerate(running):
        if process.wait() != 0:
            raise RuntimeError("the build of route %d (%r) failed" % (index, routes[index]))
        show(("build", "-", "r%d" % index, time.time() - started, 0.0, 0.0, 0.0, ""), table)
    return builds


def request_for(model_dir, build, route):
    env, artifact, work = build
    return {"route": route, "case": "batch", "args": [], "artifact": artifact, "artifact_sha256": "", "workdir": work,
            "output": os.path.join(work, "output.npy"), "metrics": os.path.join(work, "metrics.json"), "input": "",
            "argv": [], "cwd": model_dir,
            "env": {k: env[k] for k in ("ROUTETUNE_INDUCTOR_ROUTE", "ROUTETUNE_PYTHON_DIR", "TORCHINDUCTOR_CACHE_DIR")}}


def kept_against_compiled(model_dir, outdir, builds, requests, rounds, table):
    """WARM_BENCH_KEPT_AB=ROUNDS: does a kept compile time a build as a new compile from its cache
    does? One trace-once process K measures each build once (its view's recording or a captured
    compile, which it keeps), then ROUNDS rounds of each build twice, once running its kept compile
    ("captured, kept") and once compiling it again (the request's ROUTETUNE_WARM_KEPT_BUILDS=0:
    "captured"), the order alternating round by round; prints each round's kept / compiled ratio of
    medians per build, and their median."""
    process = WarmProcess(os.path.join(outdir, "warm-K"), model_dir, dict(builds[0][0], ROUTETUNE_WARM_CAPTURE="1"))
    show(("warm-start", "K", "-", process.start_s, 0.0, 0.0, 0.0, ""), table)

    def measure(index, keep):
        request = dict(requests[index])
        if not keep:
            request["env"] = dict(request["env"], ROUTETUNE_WARM_KEPT_BUILDS="0")
        started = time.time()
        reply = process.run(request)
        wall_s = time.time() - started
        with open(request["metrics"], encoding="utf-8") as handle:
            metrics = json.load(handle)
        gpu_s, median_ms = metrics_of(request["metrics"])
        show(("warm", "K", "r%d" % index, wall_s, gpu_s, metrics.get("first_call_s", 0.0), median_ms,
              reply.get("code_sha256", ""), metrics), table)
        return median_ms, metrics.get("path", "")

    for index in range(len(requests)):
        measure(index, True)
    ratios = {index: [] for index in range(len(requests))}
    for round_index in range(rounds):
        for index in range(len(requests)):
            order = (True, False) if round_index % 2 == 0 else (False, True)
            medians = {keep: measure(index, keep) for keep in order}
            ratios[index].append(medians[True][0] / medians[False][0])
            line = "round %d r%d kept/compiled %.4f (%s %.4f ms, %s %.4f ms)" % (
                round_index, index, ratios[index][-1], medians[True][1], medians[True][0], medians[False][1],
                medians[False][0])
            print(line, flush=True)
            table.write(line + "\n")
    for index, values in ratios.items():
        line = "r%d kept/compiled: median %.4f, range %.4f-%.4f over %d rounds" % (
            index, statistics.median(values), min(values), max(values), len(values))
        print(line, flush=True)
        table.write(line + "\n")
    process.close()
    return 0


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    model_dir, outdir = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    routes = argv[3:] or [""]
    os.makedirs(outdir, exist_ok=True)
    table = open(os.path.join(outdir, "warm_bench.tsv"), "w", encoding="utf-8")
    header = "\t".join(["mode", "process", "build", "wall_s", "gpu_s", "first_call_s", "median_ms", "code_sha256",
                        "wall/(2gpu+1)", "code_load_s", "modules", "reset_s", "compile_phases_s", "path",
                        "output_diff", "caches"])
    print(header, flush=True)
    table.write(header + "\n")
    builds = build_all(model_dir, outdir, routes, table)
    requests = [request_for(model_dir, build, route) for build, route in zip(builds, routes)]
    # A: the first build twice, then each other build, the second of them again, the first last.
    order_a = [0, 0] + list(range(1, len(routes))) + ([1] if len(routes) > 1 else []) + ([0] if len(routes) > 1 else [])
    # C: A's order again in a process whose Inductor loads kernels in-process (compile_threads 1)
    # rather than through its pool of compile workers: does the pool slow a build's first request?
    tracing = dict(builds[0][0], ROUTETUNE_WARM_CAPTURE="0")
    single = dict(tracing, TORCHINDUCTOR_COMPILE_THREADS="1")
    # D: A's order again in a process that traces the model once (ROUTETUNE_WARM_CAPTURE=1) and
    # compiles each build's route from that graph: no Dynamo trace per request.
    captured = dict(builds[0][0], ROUTETUNE_WARM_CAPTURE="1")
    processes = {"A": (order_a, tracing), "B": ([0], tracing), "C": (order_a, single), "D": (order_a, captured)}
    first_outputs, key_details = {}, {}
    if os.environ.get("WARM_BENCH_KEPT_AB"):
        return kept_against_compiled(model_dir, outdir, builds, requests, int(os.environ["WARM_BENCH_KEPT_AB"]), table)
    for name in os.environ.get("WARM_BENCH_PROCESSES", "A B C").split():
        order, env = processes[name]
        process = WarmProcess(os.path.join(outdir, "warm-" + name), model_dir, env)
        show(("warm-start", name, "-", process.start_s, 0.0, 0.0, 0.0, ""), table)
        for index in order:
            started = time.time()
            try:
                reply = process.run(requests[index])
            except RuntimeError as error:
                # A request refused after it ran (other code than the build's) has written its
                # metrics: what that code measured is shown beside the refusal.
                metrics, gpu_s, median_ms = {}, 0.0, 0.0
                if os.path.exists(requests[index]["metrics"]) and os.path.getmtime(requests[index]["metrics"]) >= started:
                    with open(requests[index]["metrics"], encoding="utf-8") as handle:
                        metrics = json.load(handle)
                    gpu_s, median_ms = metrics_of(requests[index]["metrics"])
                show(("warm-failed", name, "r%d" % index, time.time() - started, gpu_s, metrics.get("first_call_s", 0.0),
                      median_ms, str(error)[:600], metrics), table)
                key_details.setdefault((name, index), metrics.get("cache_keys", []))
                continue
            wall_s = time.time() - started
            with open(requests[index]["metrics"], encoding="utf-8") as handle:
                metrics = json.load(handle)
            gpu_s, median_ms = metrics_of(requests[index]["metrics"])
            metrics["output_diff"] = output_difference(first_outputs, index, requests[index]["output"])
            show(("warm", name, "r%d" % index, wall_s, gpu_s, metrics.get("first_call_s", 0.0), median_ms,
                  reply.get("code_sha256", ""), metrics), table)
            key_details.setdefault((name, index), metrics.get("cache_keys", []))
        process.close()
    compare_cache_keys(key_details, os.path.join(outdir, "cache_key_diff.txt"))
    env, _, work = builds[0]
    output, metrics = os.path.join(work, "output.npy"), os.path.join(work, "metrics.json")
    for mode, script in (("fresh", WORKLOAD), ("forked", FORKED)) if os.environ.get("WARM_BENCH_FRESH", "1") == "1" else ():
        for attempt in range(2):
            started = time.time()
            subprocess.run([sys.executable, script, "run", model_dir, output, metrics], env=env, check=True)
            gpu_s, median_ms = metrics_of(metrics)
            with open(metrics, encoding="utf-8") as handle:
                first_call_s = json.load(handle).get("first_call_s", 0.0)
            show((mode, str(attempt + 1), "r0", time.time() - started, gpu_s, first_call_s, median_ms, ""), table)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
