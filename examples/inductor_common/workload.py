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
"""

import importlib
import json
import os
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


def compiled(model):
    import torch

    helper_dir = os.environ.get("ROUTETUNE_PYTHON_DIR")
    if helper_dir:
        sys.path.insert(0, helper_dir)
    import routetune_inductor

    applied = routetune_inductor.apply_route()
    return torch.compile(model), applied


def save_npy(path, tensor):
    import numpy

    numpy.save(path, tensor.detach().float().cpu().numpy())
    if not path.endswith(".npy") and os.path.exists(path + ".npy"):
        os.replace(path + ".npy", path)


def build(model_dir, artifact):
    import torch

    model, example = load_model(model_dir)
    started = time.time()
    fn, applied = compiled(model)
    with torch.no_grad():
        fn(example)
        fn(example)
    torch.cuda.synchronize()
    with open(artifact, "w", encoding="utf-8") as handle:
        json.dump({"torch": torch.__version__, "config": {k: str(v) for k, v in applied.items()},
                   "compile_s": time.time() - started, "script_s": time.time() - STARTED,
                   "cache": os.environ.get("TORCHINDUCTOR_CACHE_DIR", "")}, handle)


def run(model_dir, output, metrics):
    import torch

    model, example = load_model(model_dir)
    fn, _ = compiled(model)
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
    save_npy(output, result)
    with open(metrics, "w", encoding="utf-8") as handle:
        json.dump({"time_ms": times, "first_call_s": first_call_s, "script_s": time.time() - STARTED}, handle)


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
