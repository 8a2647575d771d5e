"""Why the trace-once warm path misses a build's compile cache (issue 26, item 2): compares what
AOTAutograd's cache key is made of when Dynamo compiles the model (as a build and a tracing warm
request do) with what it is made of when the once-captured graph is compiled (workload.py's
ROUTETUNE_WARM_CAPTURE path), and tries copies of the captured graph that keep what Dynamo's
own graph carries. Needs PyTorch and a GPU.

  python3 bench/warm_capture_probe.py MODEL_DIR OUTDIR

builds the default route with workload.py into OUTDIR/cache (its own TORCHINDUCTOR_CACHE_DIR),
then in this process, in order: (A) torch.compile of the model, as a tracing request; (capture)
the graph traced once with a backend that only keeps it (the first trace-once path); (keep-faithful)
that graph compiled with compile_fx from workload.faithful_copy; (recording) torch.compile through
Inductor's own backend wrapped to keep a faithful copy of the graph it is given (workload.dispatching_backend, the path now); (recorded-faithful,
twice) that graph compiled with compile_fx. For each compile it prints the cache counters, whether
AOTAutograd's key equals A's and which parts of the graph module's pickled state (its attributes,
its meta entries) hash differently from A's, and writes OUTDIR/probe.txt: every key part that
differs from A's and what the graph modules and their placeholders carry.
"""

import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOAD = os.path.join(HERE, "..", "examples", "inductor_common", "workload.py")
CALLS = []  # (gm, details, key) of each autograd_cache_key call since last cleared


def hook_key():
    import torch._functorch._aot_autograd.autograd_cache as autograd_cache

    original = autograd_cache.autograd_cache_key

    def autograd_cache_key(*args, **kwargs):
        result = original(*args, **kwargs)
        CALLS.append((args[0] if args else kwargs.get("gm"), [str(line) for line in result[1]], str(result[0])))
        return result

    autograd_cache.autograd_cache_key = autograd_cache_key


PICKLERS = []  # the last AOTAutograd cache pickler that described a key


def hook_pickler():
    """Keeps the pickler AOTAutograd hashes its key's parts with, to hash a graph module's parts
    one by one (part_differences)."""
    import torch._functorch._aot_autograd.autograd_cache as autograd_cache

    pickler_class = autograd_cache.AOTAutogradCachePickler
    original = pickler_class.debug_lines

    def debug_lines(self, *args, **kwargs):
        PICKLERS[:] = [self]
        return original(self, *args, **kwargs)

    pickler_class.debug_lines = debug_lines


def part_differences(reference, gm):
    """The parts of gm's pickled state (its __dict__ but the graph, and each meta entry) whose
    hash differs from reference's, with both values' repr."""
    if not PICKLERS:
        return ["no pickler recorded"]
    pickler = PICKLERS[0]

    def hashed(value):
        try:
            return pickler.get_hash(value)
        except Exception as error:  # a part that does not pickle is reported, not fatal
            return "unpicklable: %r" % error

    def parts(module):
        _, (data, _imports) = module.__reduce__()
        result = {"dict." + name: value for name, value in data.items() if name != "meta"}
        result.update({"meta." + name: value for name, value in data.get("meta", {}).items()})
        return result

    ours, theirs = parts(gm), parts(reference)
    lines = []
    for name in sorted(set(ours) | set(theirs)):
        if name not in ours or name not in theirs:
            lines.append("%s only in %s" % (name, "A" if name in theirs else "this"))
        elif hashed(ours[name]) != hashed(theirs[name]):
            lines.append("%s: A %s | this %s" % (name, repr(theirs[name])[:300], repr(ours[name])[:300]))
    return lines


def placeholders(gm):
    return [node for node in gm.graph.nodes if node.op == "placeholder"]


def describe(gm):
    """What gm carries besides its code: its __dict__'s keys and, per placeholder, its attributes
    and meta keys."""
    lines = ["dict keys: " + " ".join(sorted(gm.__dict__))]
    for node in placeholders(gm)[:3]:
        lines.append("placeholder %s attrs: %s meta: %s" % (
            node.name, " ".join(sorted(getattr(node, "__dict__", {}))), " ".join(sorted(node.meta))))
    return lines


def main(argv):
    model_dir, outdir = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    os.makedirs(outdir, exist_ok=True)
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(outdir, "cache")
    os.environ["ROUTETUNE_INDUCTOR_ROUTE"] = ""
    os.environ.setdefault("ROUTETUNE_PYTHON_DIR", os.path.join(HERE, "..", "python"))
    started = time.time()
    subprocess.run([sys.executable, WORKLOAD, "build", model_dir, os.path.join(outdir, "artifact.json")], check=True)
    print("build %.1f s" % (time.time() - started), flush=True)
    sys.path.insert(0, os.path.dirname(WORKLOAD))
    import workload
    import torch
    import torch._dynamo
    from torch._inductor.compile_fx import compile_fx

    model, example = workload.load_model(model_dir)
    hook_key()
    hook_pickler()
    report = []
    graphs = {}

    def compile_a():
        torch._dynamo.reset()
        with torch.no_grad():
            torch.compile(model)(example)

    def capture_keep():
        kept = []

        def keep(graph_module, inputs):
            kept.append((graph_module, list(inputs), torch._guards.TracingContext.try_get()))
            return graph_module.forward

        torch._dynamo.reset()
        with torch.no_grad():
            torch.compile(model, backend=keep)(example)
        torch._dynamo.reset()
        graphs["keep"] = workload.single_graph(kept)

    def compile_recording():
        backend, recorded = workload.dispatching_backend()
        torch._dynamo.reset()
        with torch.no_grad():
            torch.compile(model, backend=backend)(example)
        graphs["recorded"] = workload.single_graph(recorded)

    def compile_from(name):
        def step():
            graph_module, inputs, context = graphs[name][:3]
            with torch._guards.tracing(context), torch.no_grad():
                function = compile_fx(workload.faithful_copy(graph_module), inputs)
                function(*inputs)
        return step

    steps = [("A", compile_a), ("capture", capture_keep), ("keep-faithful", compile_from("keep")),
             ("recording", compile_recording), ("recorded-faithful", compile_from("recorded")),
             ("recorded-faithful-again", compile_from("recorded"))]
    reference = None
    for name, step in steps:
        before = workload.cache_counters()
        del CALLS[:]
        try:
            step()
        except Exception as error:  # a probe reports every failure and goes on
            print("%s: failed: %r" % (name, error), flush=True)
            report.append("%s: failed: %r" % (name, error))
            continue
        caches = workload.caches_since(before)
        if not CALLS:
            print("%s: no key computed, caches %s" % (name, json.dumps(caches)), flush=True)
            continue
        gm, details, key = CALLS[0]
        if reference is None:
            reference = (gm, details, key)
        same = key == reference[2]
        print("%s: key %s (%s A's), caches %s" % (name, key[:12], "equals" if same else "differs from",
                                                   json.dumps(caches, sort_keys=True)), flush=True)
        report.append("== %s: key %s, caches %s" % (name, key, json.dumps(caches, sort_keys=True)))
        report += ["  carries: " + line for line in describe(gm)]
        if name != "A":
            report += ["  only %s: %s" % (name, line[:300]) for line in details if line not in reference[1]]
            report += ["  only A: %s" % line[:300] for line in reference[1] if line not in details]
            parts = part_differences(reference[0], gm)
            report += ["  gm part differs: " + line for line in parts]
            print("\n".join("  gm part differs: " + line[:400] for line in parts), flush=True)
    with open(os.path.join(outdir, "probe.txt"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
