"""Why the trace-once warm path misses a build's compile cache (issue 26, item 2): compares what
AOTAutograd's cache key is made of when Dynamo compiles the model (as a build and a tracing warm
request do) with what it is made of when the once-captured graph is compiled (workload.py's
ROUTETUNE_WARM_CAPTURE path), and tries copies of the captured graph that keep what Dynamo's
own graph carries. Needs PyTorch and a GPU.

  python3 bench/warm_capture_probe.py MODEL_DIR OUTDIR

builds the default route with workload.py into OUTDIR/cache (its own TORCHINDUCTOR_CACHE_DIR),
then in this process: (A) torch.compile of the model, as a tracing request; (variants) the graph
captured once, compiled with compile_fx as copied by each variant. For each it prints the cache
counters and whether AOTAutograd's key equals A's, and writes OUTDIR/probe.txt: every key part
that differs from A's, untruncated, and what the graph modules and their placeholders carry
(attributes, node attributes) that the other lacks.
"""

import copy
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
    report = []

    def compile_a():
        torch._dynamo.reset()
        with torch.no_grad():
            torch.compile(model)(example)

    graph = None

    def compile_variant(copier):
        graph_module, inputs, context = graph
        with torch._guards.tracing(context), torch.no_grad():
            function = compile_fx(copier(graph_module), inputs)
            function(*inputs)

    runs = [("A", compile_a)]
    variants = [("deepcopy", copy.deepcopy), ("faithful", workload.faithful_copy), ("faithful-again", workload.faithful_copy),
                ("original", lambda gm: gm)]
    reference = None
    for name, step in runs + [("capture", None)] + variants:
        from torch._dynamo.utils import counters

        if name == "capture":
            graph = workload.capture_graph(model, example)
            print("captured: %s" % (graph is not None), flush=True)
            if graph is None:
                break
            continue
        copier = dict(variants).get(name)
        before = workload.cache_counters()
        del CALLS[:]
        try:
            if copier is None:
                step()
            else:
                compile_variant(copier)
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
            report += ["  only %s: %s" % (name, line) for line in details if line not in reference[1]]
            report += ["  only A: %s" % line for line in reference[1] if line not in details]
            if gm.code != reference[0].code:
                report.append("  code differs")
    with open(os.path.join(outdir, "probe.txt"), "w", encoding="utf-8") as handle:
        handle.write("\n".join(report) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
