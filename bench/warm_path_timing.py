"""Whether the warm process's trace-once paths time a build as torch.compile runs it (issue 26,
item 2): last session's direct path measured BERT's triton.cudagraphs=on build 7.6% slower and its
default 3% faster than a tracing request, with the same code. Needs PyTorch and a GPU.

  python3 bench/warm_path_timing.py MODEL_DIR OUTDIR [ROUTE...]

builds each ROUTE (default: "" and "-inductor:triton.cudagraphs=on") with
examples/inductor_common/workload.py into OUTDIR/rN (each its own TORCHINDUCTOR_CACHE_DIR), then,
in this one process, ROUNDS (env, default 3) times, the traced paths first in odd rounds and the
dispatch paths first in even ones:

  traced     each build in turn: Dynamo reset, torch.compile of the model under its route (what a
             tracing warm request and the deployed model run)
  dispatch   the model traced once under the first build's route through
             workload.dispatching_backend, then each build in turn compiled into its slot
             (workload.compile_into) and run through the traced model, Dynamo's guards included
             (the trace-once path now)
  direct     the same compile called directly with the recorded inputs (last session's path;
             DIRECT=0 leaves it out: on the H200 its cudagraphs build ran at 22-30 ms and the
             dispatch path after it 4-6% slower than in the round before it first ran)

each timed as workload.time_calls times a request (median of 50 calls after 10), with the hash of
the generated code its compile loaded. In the first round each path's calls are also profiled
(torch.profiler over 5 calls): the operators run per call, most frequent first, to show what one
path does that another does not (e.g. copies of inputs into CUDA graph buffers). Prints one TSV
line per measurement (round, build, path, median_ms, code_sha256) and the profiles, also to
OUTDIR/path_timing.txt.
"""

import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORKLOAD = os.path.join(ROOT, "examples", "inductor_common", "workload.py")
LINES = []


def say(line):
    print(line, flush=True)
    LINES.append(line)


def build_all(model_dir, outdir, routes):
    """(route, cache folder) of each route, built at once with workload.py."""
    builds, processes = [], []
    for index, route in enumerate(routes):
        folder = os.path.join(outdir, "r%d" % index)
        os.makedirs(folder, exist_ok=True)
        env = dict(os.environ, ROUTETUNE_INDUCTOR_ROUTE=route, ROUTETUNE_PYTHON_DIR=os.path.join(ROOT, "python"),
                   TORCHINDUCTOR_CACHE_DIR=os.path.join(folder, "cache"))
        processes.append(subprocess.Popen([sys.executable, WORKLOAD, "build", model_dir,
                                           os.path.join(folder, "artifact.json")], env=env))
        builds.append((route, os.path.join(folder, "cache")))
    for process in processes:
        if process.wait() != 0:
            raise SystemExit("a build failed")
    return builds


def use(build):
    """Points the route and Inductor's cache folder of this process's environment at build."""
    route, cache = build
    os.environ["ROUTETUNE_INDUCTOR_ROUTE"] = route
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache


def profile_calls(fn, example, label):
    """Says the operators fn runs per call, the twelve most frequent, over 5 profiled calls."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    with torch.no_grad():
        fn(example)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as profiler:
            for _ in range(5):
                fn(example)
            torch.cuda.synchronize()
    averages = sorted(profiler.key_averages(), key=lambda item: -item.count)[:12]
    say("profile %s: %s" % (label, "; ".join("%s x%.1f" % (item.key[:60], item.count / 5.0) for item in averages)))


def main(argv):
    model_dir, outdir = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    routes = argv[3:] or ["", "-inductor:triton.cudagraphs=on"]
    os.makedirs(outdir, exist_ok=True)
    os.environ.setdefault("ROUTETUNE_PYTHON_DIR", os.path.join(ROOT, "python"))
    builds = build_all(model_dir, outdir, routes)
    sys.path.insert(0, os.path.dirname(WORKLOAD))
    import workload
    import torch
    import torch._dynamo
    import torch._inductor.config as config
    from torch._inductor import cudagraph_trees

    model, example = workload.load_model(model_dir)
    defaults = config.save_config()
    workload.record_loaded_code()

    def fresh():
        torch._dynamo.reset()
        config.load_config(defaults)
        del workload.LOADED_CODE[:]

    def measure(round_index, index, path, fn, profiled):
        times, _result, _first = workload.time_calls(fn, example)
        code = workload.code_sha256(workload.LOADED_CODE)[:16] if workload.LOADED_CODE else "-"
        say("%d\tr%d\t%s\t%.4f\t%s" % (round_index, index, path, statistics.median(times), code))
        if profiled:
            profile_calls(fn, example, "r%d %s" % (index, path))

    def traced_paths(round_index, first):
        for index, build in enumerate(builds):
            use(build)
            fresh()
            measure(round_index, index, "traced", workload.compiled(model)[0], first)

    def dispatch_paths(round_index, first):
        use(builds[0])
        fresh()
        backend, recorded = workload.dispatching_backend()
        traced = workload.compiled(model, backend)[0]
        with torch.no_grad():
            traced(example)
        graph = workload.single_graph(recorded)
        if graph is None:
            say("the model does not trace to one graph of one output: no dispatch path")
            return
        _module, inputs, _context, slot = graph
        for index, build in enumerate(builds):
            use(build)
            cudagraph_trees.reset_cudagraph_trees()
            config.load_config(defaults)
            del workload.LOADED_CODE[:]
            refused = workload.compile_into(graph)
            if refused:
                say("r%d: %s" % (index, refused))
                continue
            measure(round_index, index, "dispatch", traced, first)
            if not with_direct:
                continue

            def direct(_example, function=slot[0]):
                results = function(*inputs)
                return results[0] if isinstance(results, (list, tuple)) else results

            measure(round_index, index, "direct", direct, first)

    with_direct = os.environ.get("DIRECT", "1") != "0"
    say("round\tbuild\tpath\tmedian_ms\tcode_sha256")
    for round_index in range(1, int(os.environ.get("ROUNDS", "3")) + 1):
        first = round_index == 1
        order = (traced_paths, dispatch_paths) if round_index % 2 else (dispatch_paths, traced_paths)
        for paths in order:
            paths(round_index, first)
    with open(os.path.join(outdir, "path_timing.txt"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(LINES) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
