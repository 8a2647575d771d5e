"""A PyTorch model as a routetune workload for the Inductor adapter.

The route reaches this script through ROUTETUNE_INDUCTOR_ROUTE (set by routetune's inductor
adapter); routetune_inductor.apply_route() sets the matching torch._inductor.config entries
before torch.compile. Compiled kernels go to TORCHINDUCTOR_CACHE_DIR, which the spec points
into the evaluation's own folder, so the build step's compilation is reused by the runs.

  workload.py build MODEL_DIR ARTIFACT             compile and run once; ARTIFACT records the config
  workload.py run MODEL_DIR OUTPUT.npy METRICS     compile (from the cache), time with CUDA events
  workload.py eager MODEL_DIR OUTPUT.npy           the eager model's output: the golden reference

The model comes from MODEL_DIR/model.py: build_model() and example_input(), both seeded.
forked.py beside this runs the same commands in a child of routetune's fork server, which has
PyTorch imported already. Besides "time_ms", METRICS records "first_call_s" (the compile from
the cache and the first call) and "script_s" (this script's own time, torch import included
unless forked), so the fixed cost of a measurement can be told from its timed part.

The build records in ARTIFACT the hash of the generated code a measurement loads ("code_sha256":
the modules Inductor's PyCodeCache loaded when the build compiled the model a second time, from
its own cache folder, as code_identity picks them: the output code, which holds every
Triton kernel's source, when each kernel module loaded is such a source; the first compile's set
is "compiled_code_sha256"), and what each of those modules defines, where it lies and its hash
("code_modules": module_summary), so that a run refused for loading other code names the modules
that differ (module_difference). This
file is also a workload of routetune's warm measurement process (python/routetune_measure.py,
docs/measurement-protocol.md): warm_setup loads the model once, so one process keeps one CUDA
context; warm_run measures one build in it: Dynamo reset, torch._inductor.config restored to
its defaults, the build's route applied, compiled from the build's cache folder, the same 50
timed calls as `run`, and the hash of the generated code it loaded, which must come from the
request's own cache folder and equal the build's. Run on the H200 on 2026-12-05 through
bench/warm_measure_bench.py and one study (docs/benchmarks.md, issue 26).

The warm process traces the model once (ROUTETUNE_WARM_CAPTURE=0 in its environment turns this
off, and every request traces the model again as above): the process's first request traces the
model through Inductor's own backend wrapped to keep a faithful copy of each graph Dynamo hands it
(dispatching_backend) and to hand Dynamo a function that calls whatever compile sits in that
graph's slot. Each later request keeps Dynamo's trace (only Inductor's CUDA graphs and config are
reset), compiles the kept graph under its build's route into the slot (compile_into: compile_fx, as
the backend does, answered by the build's cache), and times the traced model, so its calls go
through Dynamo's guards and frame as the deployed torch.compile'd model's do, without tracing the
model again (Dynamo's trace is most of a BERT request). On the H200 (2026-12-06,
bench/warm_path_timing.py, six rounds in one process, the order alternating) this path timed BERT's
default and triton.cudagraphs=on builds at 0.996 and 1.000 times (median of the rounds' ratios;
0.993-1.008) what a tracing request times, and a request cost 0.52-0.56 s against 1.8-2.4 s
(docs/benchmarks.md, issue 26). The first version of this path (2026-12-05, an H100) called the
compile directly, outside Dynamo's frame: it measured BERT's triton.cudagraphs=on build 7.6% slower
and its default 3% faster than a tracing request, so it is not used. (A graph kept by a backend
that only keeps it missed AOTAutograd's cache, and a plain deepcopy drops Dynamo's input sources,
which faithful_copy keeps.) Dynamo's trace itself depends on
one part of the route, whether Inductor freezes the parameters (dynamo_view): the process keeps
one recorded trace per view, side by side (each through its own backend, so Dynamo keeps one
compiled entry per view and no reset is needed); the first freezing=on request records the frozen
view ("dynamo, recording"). Before, one trace stood for every route, and on the H200 freezing=on
compiled from it to other code than its build's, so the process traced every later request. Each
slot counts the calls through it: a request whose timed calls did not all go through its own
view's slot is traced and timed again as the build was ("dynamo, dispatch missed"). A request
whose compile from the recorded graph loads other code than the build's is traced as the build
was ("path": "dynamo, capture refused", the reason in "capture_refused"), and the process traces
every later request; so does one on which Dynamo traced the model again (a guard failed: "dynamo,
traced again"). The reply's "why" says so: the reason of a refusal, a miss or a second trace, and,
on each later tracing request, at whose request and why capturing stopped; otherwise, where
AOTAutograd's cache bypassed the request's compile, that it traced the graph again and why
(bypass_reason: a frozen build's first request in a process, since PyTorch 2.11's AOTAutograd cache
serves no frozen graph; 3.3 s of ResNet-18 and 7.6 s of BERT on an H100, 2026-12-06, against 0.2
and 0.35 s for the default). routetune keeps each build's reasons in the summary's code_identities
and the report's warm measurement line. A build measured again in the same process (the default's runs paired with each
candidate, the confirmation's second round) runs the compile its earlier request made and checked
("captured, kept": keep_compile, at most ROUTETUNE_WARM_KEPT_BUILDS builds, 8 by default, 0 turns it
off), not a new compile from its cache; a triton.cudagraphs=on build is compiled each time. The
request that kept it replies "setup_s" (its trace or compile and first call), which routetune
leaves out of the build's later runs' price. On an H100 (2026-12-06, bench/warm_measure_bench.py
with WARM_BENCH_KEPT_AB=5) a kept compile timed each build as a new compile of it did: medians of
the per-round ratios 0.997-1.004 for ResNet-18's and BERT's default and freezing=on builds.
A model that does not trace to one graph of one output keeps the tracing
path; metrics' "path" says which ran. With ROUTETUNE_WARM_CACHE_KEYS=1 each request's metrics
also hold AOTAutograd's cache key details ("cache_keys"), so the two paths' keys for one build can
be compared part by part (bench/warm_measure_bench.py prints the parts that differ).
"""

import hashlib
import importlib
import json
import os
import re
import sys
import time

STARTED = time.time()
WARMUP = 10
ITERS = 50


def load_model(model_dir):
    import torch

    torch.manual_seed(0)
    torch.set_float32_matmul_precision("highest")
    sys.path.insert(0, os.path.abspath(model_dir))
    module = importlib.import_module("model")
    model = module.build_model().cuda().eval()
    example = module.example_input().cuda()
    return model, example


def apply_route():
    """Sets torch._inductor.config to the route the environment names (routetune_inductor, from
    ROUTETUNE_PYTHON_DIR); returns the entries it set."""
    helper_dir = os.environ.get("ROUTETUNE_PYTHON_DIR")
    if helper_dir and helper_dir not in sys.path:
        sys.path.insert(0, helper_dir)
    import routetune_inductor

    return routetune_inductor.apply_route()


def compiled(model, backend="inductor"):
    """model under torch.compile (Inductor unless backend says otherwise) after the route the
    environment names is applied, and the config entries the route set."""
    import torch

    applied = apply_route()
    return torch.compile(model, backend=backend), applied


LOADED_CODE = []  # paths of the generated modules Inductor loaded since the list was last cleared
LOAD_SECONDS = [0.0]  # seconds spent loading them (nested loads counted once), since last cleared
LOAD_DEPTH = [0]


def record_loaded_code():
    """Wraps PyCodeCache.load_by_key_path (once) so every generated module it loads is noted in
    LOADED_CODE; False when this PyTorch has no such method."""
    try:
        from torch._inductor.codecache import PyCodeCache
    except ImportError:
        return False
    original = PyCodeCache.__dict__.get("load_by_key_path")
    if original is None or getattr(original, "routetune_wrapped", False):
        return original is not None
    function = original.__func__

    def load_by_key_path(cls, key, path, *args, **kwargs):
        LOADED_CODE.append(os.path.abspath(path))
        started = time.time()
        LOAD_DEPTH[0] += 1
        try:
            return function(cls, key, path, *args, **kwargs)
        finally:
            LOAD_DEPTH[0] -= 1
            if LOAD_DEPTH[0] == 0:
                LOAD_SECONDS[0] += time.time() - started

    wrapped = classmethod(load_by_key_path)
    wrapped.routetune_wrapped = True
    PyCodeCache.load_by_key_path = wrapped
    return True


def is_output_code(text):
    """Whether a generated module's text is a compiled graph's output code: it defines call(), at
    the top level or, as PyTorch 2.11's wrapper writes it, in class Runner, bound as call =
    runner.call."""
    return re.search(r"^(\s*def call\(|call = )", text, re.MULTILINE) is not None


def code_identity(paths):
    """What identifies the code of the generated modules at paths: ("output code", the output code
    modules) when every other module's source lies within one of them (Inductor writes each Triton
    kernel's source into the output code, and whether a process also loads the kernel's own module
    through PyCodeCache depends on how it compiled or launched the kernel, not on the code), else
    ("every module", every module); modules once each, sorted."""
    texts = {}
    for path in sorted(set(paths)):
        with open(path, "rb") as handle:
            texts[path] = handle.read().decode("utf-8", "replace")
    outputs = [path for path, text in texts.items() if is_output_code(text)]
    within = all(any(text.strip() in texts[output] for output in outputs)
                 for path, text in texts.items() if path not in outputs)
    return ("output code", outputs) if outputs and within else ("every module", sorted(texts))


def code_sha256(paths):
    """One hash over the generated code at paths (order and repeats ignored): over the contents of
    the modules code_identity(paths) picks."""
    digests = []
    for path in code_identity(paths)[1]:
        with open(path, "rb") as handle:
            digests.append(hashlib.sha256(handle.read()).hexdigest())
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()


def module_summary(paths):
    """Each generated module at paths, once, sorted: [what it defines ("output code" for the module
    with the compiled graph's call(), else its Triton kernels' names, or "other"), its path under
    TORCHINDUCTOR_CACHE_DIR, the sha256 of its contents]; what a build records so that a run that
    loads other code can say which modules differ (module_difference)."""
    cache = os.path.abspath(os.environ.get("TORCHINDUCTOR_CACHE_DIR", ""))
    summary = []
    for path in sorted(set(paths)):
        with open(path, "rb") as handle:
            contents = handle.read()
        text = contents.decode("utf-8", "replace")
        kernels = sorted(set(re.findall(r"^def (triton_\w+)\(", text, re.MULTILINE)))
        defines = "output code" if is_output_code(text) else (", ".join(kernels) or "other")
        summary.append([defines, os.path.relpath(path, cache), hashlib.sha256(contents).hexdigest()])
    return summary


def module_difference(built_modules, paths, shown=4):
    """One line on how the modules at paths differ from a build's (module_summary): those only this
    run loaded, then those only the build did, each by what it defines and its path, at most shown
    of each; "" when both sets hold the same contents."""
    run_modules = module_summary(paths)
    built_hashes = {module[2] for module in built_modules}
    run_hashes = {module[2] for module in run_modules}
    parts = []
    for label, modules, other in (("only this run loaded", run_modules, built_hashes),
                                  ("only its build loaded", built_modules, run_hashes)):
        only = [module for module in modules if module[2] not in other]
        if only:
            named = ["%s (%s)" % (module[0], module[1]) for module in only[:shown]]
            more = " and %d more" % (len(only) - shown) if len(only) > shown else ""
            parts.append("%s %d of %d modules: %s%s" % (label, len(only), len(modules), "; ".join(named), more))
    return "; ".join(parts)


def time_calls(fn, example):
    """(times in ms of ITERS timed calls after WARMUP, the last result, the first call's seconds)."""
    import torch

    times = []
    with torch.no_grad():
        first = time.time()
        result = fn(example)
        torch.cuda.synchronize()
        first_call_s = time.time() - first
        for _ in range(WARMUP - 1):
            result = fn(example)
        torch.cuda.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        for _ in range(ITERS):
            start.record()
            result = fn(example)
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        result = result.clone()
    return times, result, first_call_s


def save_npy(path, tensor):
    import numpy

    numpy.save(path, tensor.detach().float().cpu().numpy())
    if not path.endswith(".npy") and os.path.exists(path + ".npy"):
        os.replace(path + ".npy", path)


def build(model_dir, artifact):
    import torch

    model, example = load_model(model_dir)
    hooked = record_loaded_code()
    started = time.time()
    fn, applied = compiled(model)
    with torch.no_grad():
        fn(example)
        fn(example)
    torch.cuda.synchronize()
    compile_s = time.time() - started
    compiled_code = code_sha256(LOADED_CODE) if hooked and LOADED_CODE else ""
    # What a measurement loads is the cache's copy, not the compile's own modules (a first compile
    # also loads each kernel's module): load it once here, as warm_run does, and record its hash.
    import torch._dynamo

    torch._dynamo.reset()
    del LOADED_CODE[:]
    fn, _ = compiled(model)
    with torch.no_grad():
        fn(example)
    torch.cuda.synchronize()
    with open(artifact, "w", encoding="utf-8") as handle:
        json.dump({"torch": torch.__version__, "config": {k: str(v) for k, v in applied.items()},
                   "compile_s": compile_s, "script_s": time.time() - STARTED,
                   "cache": os.environ.get("TORCHINDUCTOR_CACHE_DIR", ""),
                   "compiled_code_sha256": compiled_code,
                   "code_sha256": code_sha256(LOADED_CODE) if hooked and LOADED_CODE else "",
                   "code_identity": code_identity(LOADED_CODE)[0] if hooked and LOADED_CODE else "",
                   "code_modules": module_summary(LOADED_CODE) if hooked else []}, handle)


def run(model_dir, output, metrics):
    import torch

    model, example = load_model(model_dir)
    fn, _ = compiled(model)
    times, result, first_call_s = time_calls(fn, example)
    save_npy(output, result)
    with open(metrics, "w", encoding="utf-8") as handle:
        json.dump({"time_ms": times, "first_call_s": first_call_s, "script_s": time.time() - STARTED}, handle)


def compile_phase_seconds():
    """The seconds PyTorch's compiler has spent so far in each of its timed phases (Dynamo's
    trace, the backend, the cache lookups: torch._dynamo.utils.compilation_time_metrics), or {}
    where this PyTorch does not keep them."""
    try:
        from torch._dynamo.utils import compilation_time_metrics
    except ImportError:
        return {}
    return {name: sum(times) for name, times in compilation_time_metrics.items()}


def compile_phases_since(before):
    """The phases of compile_phase_seconds() that took 5 ms or more since before, in seconds."""
    now = compile_phase_seconds()
    spent = {name: round(total - before.get(name, 0.0), 4) for name, total in now.items()}
    return {name: seconds for name, seconds in spent.items() if seconds >= 0.005}


CACHE_KEY_DETAILS = []  # AOTAutograd's cache key details of each lookup since last cleared


def record_cache_keys():
    """Wraps AOTAutograd's autograd_cache_key (once) so the details its key is made of (one line
    per part: the graph, the inputs, the configs) are kept in CACHE_KEY_DETAILS, to tell why two
    compiles of one build get different keys; False when this PyTorch has no such function."""
    try:
        import torch._functorch._aot_autograd.autograd_cache as autograd_cache
    except ImportError:
        return False
    original = getattr(autograd_cache, "autograd_cache_key", None)
    if original is None or getattr(original, "routetune_wrapped", False):
        return original is not None

    def autograd_cache_key(*args, **kwargs):
        result = original(*args, **kwargs)
        if isinstance(result, tuple) and len(result) == 2:
            CACHE_KEY_DETAILS.append({"key": str(result[0]), "details": [str(line)[:400] for line in result[1]]})
        return result

    autograd_cache_key.routetune_wrapped = True
    autograd_cache.autograd_cache_key = autograd_cache_key
    return True


def cache_counters():
    """PyTorch's counts of its compile caches' hits and misses so far (AOTAutograd's and Inductor's
    FX graph cache: torch._dynamo.utils.counters), or {} where this PyTorch has none."""
    try:
        from torch._dynamo.utils import counters
    except ImportError:
        return {}
    wanted = ("autograd_cache_hit", "autograd_cache_miss", "autograd_cache_bypass", "fxgraph_cache_hit",
              "fxgraph_cache_miss", "fxgraph_cache_bypass")
    return {"%s.%s" % (group, name): count for group in ("aot_autograd", "inductor")
            for name, count in counters[group].items() if name in wanted}


def caches_since(before):
    """The cache hits and misses of cache_counters() since before (those that changed)."""
    now = cache_counters()
    return {name: count - before.get(name, 0) for name, count in now.items() if count != before.get(name, 0)}


def bypass_reason(caches, view):
    """Why a request's compile cost a trace where PyTorch's counters (caches_since) say that
    AOTAutograd's cache bypassed it, in the Dynamo view (dynamo_view) it compiled in; "" otherwise."""
    if not caches.get("aot_autograd.autograd_cache_bypass"):
        return ""
    if view == ("freezing", True):
        return ("AOTAutograd's cache serves no frozen graph (PyTorch's check_cacheable bypasses every compile "
                "under torch._inductor.config.freezing), so this request traced and froze the model's graph again")
    return "AOTAutograd's cache bypassed this request's compile, so it traced the model's graph again"


def prewarm_compiler():
    """Compiles and runs a one-line function once and forgets it, so that what every compile pays
    once per process (Inductor's and Triton's imports, the compile workers, the CUDA driver's
    module loader) is paid while the warm process starts, not by its first measurement."""
    import torch
    import torch._dynamo

    with torch.no_grad():
        torch.compile(lambda x: x * 2 + 1)(torch.ones(8, device="cuda"))
    torch.cuda.synchronize()
    torch._dynamo.reset()


def warm_setup(args):
    """The warm process's context: the model and its input on the GPU (one CUDA context for every
    request) and the Inductor config's defaults, restored before each request."""
    import torch._inductor.config as config

    model, example = load_model(args[0])
    defaults = config.save_config()
    prewarm_compiler()
    config.load_config(defaults)
    record_loaded_code()
    if os.environ.get("ROUTETUNE_WARM_CACHE_KEYS") == "1":
        record_cache_keys()
    config.load_config(defaults)
    return {"model": model, "example": example, "defaults": defaults, "traces": {}, "kept": {},
            "record": os.environ.get("ROUTETUNE_WARM_CAPTURE", "1") != "0"}


def kept_builds():
    """The most builds whose compiles the process keeps at once: ROUTETUNE_WARM_KEPT_BUILDS (8 by
    default), read per request (a request's env may set it; 0 keeps none and uses none kept)."""
    return int(os.environ.get("ROUTETUNE_WARM_KEPT_BUILDS", "8"))


def keep_compile(context, key, view, graph, code):
    """Keeps the compile now in graph's slot as build key's (its artifact, its code hash), whose
    requests ran code hash code, so that the build's later requests in this process run it again
    instead of compiling it again; the least recently used goes beyond kept_builds(). A build whose
    route records CUDA graphs (triton.cudagraphs) is not kept: reset_between_requests lets
    Inductor's CUDA graph trees go, and a kept compile's recorded graphs would go with them.
    True when it was kept."""
    import torch._inductor.config as config

    if config.triton.cudagraphs or kept_builds() <= 0:
        return False
    context["kept"].pop(key, None)
    context["kept"][key] = {"view": view, "compile": graph[3][0], "code": code}
    while len(context["kept"]) > kept_builds():
        del context["kept"][next(iter(context["kept"]))]
    return True


def kept_compile(context, key, view):
    """Build key's kept compile of this view ({"compile", "code"}), made the most recently used,
    or None (also when kept_builds() is 0)."""
    if kept_builds() <= 0:
        return None
    kept = context["kept"].pop(key, None)
    if kept is None or kept["view"] != view:
        return None
    context["kept"][key] = kept
    return kept


def dispatching_backend():
    """(a torch.compile backend: Inductor's own, which also keeps, for each graph Dynamo gives it, a
    faithful copy made before Inductor's passes change it, with its inputs, Dynamo's tracing context,
    the one-entry list its compiled function sits in and a one-entry count of the calls through it,
    and returns to Dynamo a function that calls whatever that list holds; the list of what it kept).
    A later request puts its own compile of the graph in the list (compile_into), and the model
    Dynamo traced runs it through Dynamo's guards and frame as a torch.compile'd model does; the
    count shows that the timed calls went through this graph's slot, not another view's."""
    import torch

    inductor = torch._TorchCompileInductorWrapper(None, None, None)
    graphs = []

    def dispatching(graph_module, inputs):
        kept = (faithful_copy(graph_module), list(inputs), torch._guards.TracingContext.try_get())
        slot, calls = [inductor(graph_module, inputs)], [0]
        graphs.append(kept + (slot, calls))

        def dispatch(*args, **kwargs):
            calls[0] += 1
            return slot[0](*args, **kwargs)

        # Whatever Dynamo may read off a compiled function (its calling convention, _boxed_call,
        # above all) is read off the dispatcher as off the compile it stands for.
        dispatch.__dict__.update(getattr(slot[0], "__dict__", {}))
        return dispatch

    return dispatching, graphs


def single_graph(graphs):
    """The one recorded graph of one output that later requests can compile instead of tracing,
    or None (the model broke into several graphs, returned several outputs, or had no context)."""
    if len(graphs) != 1:
        return None
    graph_module, tracing = graphs[0][0], graphs[0][2]
    output = next(iter(reversed(graph_module.graph.nodes)))
    results = output.args[0]
    if not isinstance(results, (list, tuple)) or len(results) != 1 or tracing is None:
        return None
    return graphs[0]


def faithful_copy(graph_module):
    """graph_module deep-copied (compile_fx's passes change the graph they are given), then given
    back what GraphModule's deepcopy leaves behind: the module's other attributes (Dynamo's
    _source_to_user_stacks; shared, not copied) and each node's own attributes (a placeholder's
    _dynamo_source, the input's origin, which AOTAutograd's cache key holds)."""
    import copy

    copied = copy.deepcopy(graph_module)
    for name, value in graph_module.__dict__.items():
        copied.__dict__.setdefault(name, value)
    for old, new in zip(graph_module.graph.nodes, copied.graph.nodes):
        for name, value in getattr(old, "__dict__", {}).items():
            if not hasattr(new, name):
                setattr(new, name, value)
    return copied


COMPILE_PROFILE = []  # with ROUTETUNE_WARM_PROFILE_COMPILE=1: the last compile_into's costliest calls


def profile_lines(profiler):
    """profiler's 30 functions of the highest cumulative time, one line each (seconds cumulative,
    seconds in the function itself, calls, where)."""
    import pstats

    stats = pstats.Stats(profiler)
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][3])[:30]
    return ["%.3f %.3f %d %s:%d(%s)" % (cumulative, own, calls, where[0][-60:], where[1], where[2])
            for where, (_, calls, own, cumulative, _) in rows]


def compile_into(graph):
    """Compiles the recorded graph under the route the environment names, as torch.compile's
    Inductor backend compiles a graph (compile_fx on a faithful copy, in Dynamo's tracing context
    of the recording, under no_grad), meant to be answered by the build's cache (the caller checks
    that it was: code_refusal), and puts it in the graph's slot; "" when done, else why not (its
    calling convention differs from the recorded compile's)."""
    import torch
    from torch._inductor.compile_fx import compile_fx

    apply_route()
    graph_module, inputs, context, slot, _ = graph
    profiler = None
    if os.environ.get("ROUTETUNE_WARM_PROFILE_COMPILE") == "1":
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    with torch._guards.tracing(context), torch.no_grad():
        function = compile_fx(faithful_copy(graph_module), inputs)
    if profiler is not None:
        profiler.disable()
        COMPILE_PROFILE[:] = profile_lines(profiler)
    if getattr(function, "_boxed_call", False) != getattr(slot[0], "_boxed_call", False):
        return "its compile's calling convention differs from the recorded one's"
    slot[0] = function
    return ""


def dynamo_view():
    """What of the route the environment names (applied here) Dynamo's trace of the model depends
    on: whether Inductor freezes the parameters (torch._dynamo.utils.is_parameter_freezing, read
    under no_grad as the model runs: Dynamo then traces each parameter as a constant of the graph,
    not as its input). Builds of one view trace the same graph; a frozen build's is not the
    default's."""
    import torch
    import torch._inductor.config as config

    apply_route()
    with torch.no_grad():
        try:
            from torch._dynamo.utils import is_parameter_freezing
        except ImportError:
            return ("freezing", bool(config.freezing))
        return ("freezing", bool(is_parameter_freezing()))


def reset_between_requests(context):
    """Forgets what the previous request compiled: Dynamo's traces (reset) unless the process keeps
    recorded traces, then only the CUDA graphs Inductor recorded; and the Inductor config."""
    import torch._dynamo
    import torch._inductor.config as config

    if not context["traces"]:
        torch._dynamo.reset()
    else:
        from torch._inductor import cudagraph_trees

        cudagraph_trees.reset_cudagraph_trees()
    config.load_config(context["defaults"])


def stop_capturing(context, why):
    """Ends the recorded path in this process: later requests trace (and reset) as a build does, and
    every view's recorded graphs, the compiles in their slots and the kept compiles are let go;
    why (the request's route and what happened) is what later requests say of their tracing."""
    context["traces"], context["kept"], context["record"] = {}, {}, False
    context["stopped"] = why


def code_refusal(artifact, caches_before):
    """Why the generated code loaded since LOADED_CODE was cleared cannot stand for the build whose
    artifact (its JSON, as read) is given ("" when it can: the same code hash, or a build that
    recorded none); names the modules that differ where the build recorded its own."""
    built = artifact.get("code_sha256", "")
    code = code_sha256(LOADED_CODE) if LOADED_CODE else ""
    if not built or code == built:
        return ""
    modules = artifact.get("code_modules")
    differing = "; " + module_difference(modules, LOADED_CODE) if modules else ""
    return "ran code %s, but its build produced %s (compile caches: %s%s)" % (
        code[:16], built[:16], json.dumps(caches_since(caches_before), sort_keys=True), differing)


def timed_in_process(fn, example):
    """time_calls in the warm process: a CUDA error (the context is lost) ends the process as
    corrupted (routetune_measure.ProcessCorrupted), so that it is replaced."""
    import routetune_measure

    try:
        return time_calls(fn, example)
    except RuntimeError as error:
        if "CUDA error" in str(error) or "illegal memory access" in str(error):
            raise routetune_measure.ProcessCorrupted(str(error).splitlines()[0])
        raise


def warm_run(context, request):
    """One run of one build in the warm process; see the module's docstring."""
    reset_started = time.time()
    reset_between_requests(context)
    reset_s = time.time() - reset_started
    del LOADED_CODE[:]
    LOAD_SECONDS[0] = 0.0
    phases_before = compile_phase_seconds()
    caches_before = cache_counters()
    del CACHE_KEY_DETAILS[:]
    del COMPILE_PROFILE[:]
    with open(request["artifact"], encoding="utf-8") as handle:
        artifact = json.load(handle)
    built = artifact.get("code_sha256", "")
    started = time.time()
    path, refused, recorded, kept, why = "dynamo", "", None, None, ""
    route = os.environ.get("ROUTETUNE_INDUCTOR_ROUTE", "") or "the default route"
    view = dynamo_view()
    trace = context["traces"].get(view)
    key = (os.path.realpath(request["artifact"]), built)
    if trace is not None:
        kept = kept_compile(context, key, view)
    if kept is not None:
        # This build ran in this process before, its own code checked then: its compile is put
        # back in its view's slot, not compiled again.
        fn, path = trace["traced"], "captured, kept"
        traces_before = len(trace["recorded"])
        trace["graph"][3][0] = kept["compile"]
    elif context["record"] and trace is None:
        # This view's first request: traced through its own dispatching backend, kept beside the
        # other views' traces (Dynamo keeps one compiled entry per backend, so no reset is needed).
        backend, recorded = dispatching_backend()
        fn, path = compiled(context["model"], backend)[0], "dynamo, recording"
    elif trace is not None:
        fn, path = trace["traced"], "captured"
        traces_before = len(trace["recorded"])
        refused = compile_into(trace["graph"]) or code_refusal(artifact, caches_before)
        if refused:
            # The recorded graph compiled to other code than the build's: it cannot stand for the
            # build. Trace as the build did, and stop capturing in this process (each refusal
            # costs a compile).
            why = "its capture was refused: " + refused
            stop_capturing(context, "capturing stopped in this process at %s's request: %s" % (route, why))
            reset_between_requests(context)
            del LOADED_CODE[:]
            fn, path = compiled(context["model"])[0], "dynamo, capture refused"
    else:
        fn, _ = compiled(context["model"])
        why = context.get("stopped", "")
    captured = path in ("captured", "captured, kept")
    calls_before = trace["graph"][4][0] if captured else 0
    calls_began = time.time()
    times, result, first_call_s = timed_in_process(fn, context["example"])
    missed = ""
    if recorded is not None:
        graph = single_graph(recorded)
        if not recorded:
            missed = "Dynamo traced nothing through this view's recording backend"
        elif graph is None:
            stop_capturing(context, "capturing stopped in this process at %s's request: the model's trace was %d "
                                    "graphs or not one output" % (route, len(recorded)))
        else:
            context["traces"][view] = {"graph": graph, "traced": fn, "recorded": recorded}
    elif captured and len(trace["recorded"]) != traces_before:
        # Dynamo traced the model again (a guard failed), so Inductor compiled it as a tracing
        # request would; the recorded trace no longer answers, so later requests trace.
        path = "dynamo, traced again"
        why = "a guard of the recorded trace failed: Dynamo traced the model again"
        stop_capturing(context, "capturing stopped in this process at %s's request: %s" % (route, why))
    elif captured and trace["graph"][4][0] - calls_before != WARMUP + ITERS:
        missed = "%d of the %d timed and warm-up calls went through this view's compile" % (
            trace["graph"][4][0] - calls_before, WARMUP + ITERS)
    if missed:
        # Dynamo ran another view's compiled entry: what was timed is not this build's code. Trace
        # as the build did, time again, and stop capturing in this process.
        refused = missed
        why = "its dispatch missed: " + missed
        stop_capturing(context, "capturing stopped in this process at %s's request: %s" % (route, why))
        reset_between_requests(context)
        del LOADED_CODE[:]
        fn, path = compiled(context["model"])[0], "dynamo, dispatch missed"
        times, result, first_call_s = timed_in_process(fn, context["example"])
    save_npy(request["output"], result)
    caches = caches_since(caches_before)
    why = why or bypass_reason(caches, view)
    with open(request["metrics"], "w", encoding="utf-8") as handle:
        json.dump({"time_ms": times, "first_call_s": first_call_s, "request_s": time.time() - started,
                   "reset_s": reset_s, "code_load_s": LOAD_SECONDS[0], "modules_loaded": len(LOADED_CODE),
                   "compile_phases_s": compile_phases_since(phases_before),
                   "caches": caches, "cache_keys": list(CACHE_KEY_DETAILS),
                   "path": path, "capture_refused": refused, "compile_profile": list(COMPILE_PROFILE)}, handle)
    cache = os.path.abspath(os.environ.get("TORCHINDUCTOR_CACHE_DIR", ""))
    foreign = [loaded for loaded in LOADED_CODE if not loaded.startswith(cache + os.sep)]
    if foreign:
        raise RuntimeError("ran generated code from outside this build's cache folder %s: %s" % (cache, foreign[0]))
    if path == "captured, kept":
        return {"code_sha256": kept["code"], "path": path}
    refused = code_refusal(artifact, caches_before)
    if refused:
        raise RuntimeError(refused)
    code = code_sha256(LOADED_CODE) if LOADED_CODE else ""
    reply = {"code_sha256": code, "path": path, "why": why}
    if path == "captured" or (path == "dynamo, recording" and view in context["traces"]):
        if keep_compile(context, key, view, context["traces"][view]["graph"], code):
            # What the build's later requests here will not pay: the trace or compile and the first call.
            reply["setup_s"] = calls_began - started + first_call_s
    return reply


def eager(model_dir, output):
    import torch

    model, example = load_model(model_dir)
    with torch.no_grad():
        save_npy(output, model(example))


def main(argv):
    if len(argv) == 4 and argv[1] == "build":
        build(argv[2], argv[3])
    elif len(argv) == 5 and argv[1] == "run":
        run(argv[2], argv[3], argv[4])
    elif len(argv) == 4 and argv[1] == "eager":
        eager(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
