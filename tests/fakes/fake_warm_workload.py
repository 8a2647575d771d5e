"""A fake workload for python/routetune_measure.py (the warm measurement process), for tests
without a GPU: each request runs the build's artifact (a fake_timed_cc program) as
`ARTIFACT METRICS [INPUT]`, its stdout becoming the case's output, and reports the sha256 of
the artifact's bytes as the code it executed.

Faults, each triggered by a route token (variable = space-separated tokens, e.g. "-O=3"; a
token matches a whole token of the request's route):
  FAKE_WARM_CRASH_ON       the process kills itself with SIGSEGV          -> run_crashed, replaced
  FAKE_WARM_CORRUPT_ON     raises ProcessCorrupted (a poisoned context)   -> run_crashed, replaced
  FAKE_WARM_GARBAGE_ON     writes a line that is not the protocol         -> run_crashed, replaced
  FAKE_WARM_HANG_ON        sleeps 1000 s                                  -> run_timeout, replaced
  FAKE_WARM_FAIL_ON        raises RuntimeError                            -> run_failed, kept
  FAKE_WARM_WRONG_CODE_ON  from the second run of a build on, reports other code -> run_failed
  FAKE_WARM_FLOOD_ON       writes 3 MiB to the output (beyond a 1 MiB max_output_mb) -> run_failed
  FAKE_WARM_SLOW_LOAD_ON   every run of the build sleeps FAKE_WARM_SLOW_LOAD_S (default 1.5)
                           first: a build that is slow to load (Inductor's frozen constants,
                           folded again on every request), then as fast as the others
  FAKE_WARM_KEPT_LOAD_ON   the build's first run in this process sleeps FAKE_WARM_SLOW_LOAD_S first and
                           replies "setup_s" with it; its later runs do not sleep: a load the process
                           keeps (an Inductor compile kept for the build's later requests)
  FAKE_WARM_PROCESS_FIRST_S  the process's first request sleeps this long first, whatever its route:
                           what a process pays once (an Inductor model's trace, kept for later requests)
Each reply says how the build ran ("path"): "first run of the build" for its first request in
this process, "a later run" after it; for a route token in FAKE_WARM_WHY_ON it also says why
("why": "asked to say why by FAKE_WARM_WHY_ON", as the Inductor workload says why its capture
was refused).
Other variables:
  FAKE_WARM_DRIFT    each run of a process takes (1 + DRIFT x runs before it in that process) of
                     the artifact's time: a process that carries state from run to run
  FAKE_WARM_LOG      a file: one line "PID ROUTE|CASE" appended per request ("-" for the default)
  FAKE_WARM_SETUP_FAIL  warm_setup raises (the process never becomes ready)
"""

import hashlib
import json
import os
import signal
import subprocess
import time

import routetune_measure


def _triggered(variable, route):
    tokens = os.environ.get(variable, "").split()
    return any(token in route.split() for token in tokens)


def warm_setup(args):
    if os.environ.get("FAKE_WARM_SETUP_FAIL"):
        raise RuntimeError("injected setup failure")
    return {"runs": 0, "seen": {}}


def warm_run(context, request):
    route = request.get("route", "")
    log = os.environ.get("FAKE_WARM_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as handle:
            handle.write("%d %s|%s\n" % (os.getpid(), route or "-", request.get("case", "")))
    if _triggered("FAKE_WARM_CRASH_ON", route):
        os.kill(os.getpid(), signal.SIGSEGV)
    if _triggered("FAKE_WARM_CORRUPT_ON", route):
        raise routetune_measure.ProcessCorrupted("CUDA error: an illegal memory access was encountered")
    if _triggered("FAKE_WARM_GARBAGE_ON", route):
        with open(os.environ["ROUTETUNE_MEASURE_REPLIES"], "w", encoding="utf-8") as replies:
            replies.write("Segmentation fault in a library that printed to the wrong descriptor\n")
    if _triggered("FAKE_WARM_HANG_ON", route):
        time.sleep(1000)
    if not context.get("first_paid"):
        context["first_paid"] = True
        time.sleep(float(os.environ.get("FAKE_WARM_PROCESS_FIRST_S", "0")))
    if _triggered("FAKE_WARM_SLOW_LOAD_ON", route):
        time.sleep(float(os.environ.get("FAKE_WARM_SLOW_LOAD_S", "1.5")))
    build = (route, request.get("artifact_sha256", ""))
    setup_s = 0.0
    if _triggered("FAKE_WARM_KEPT_LOAD_ON", route) and build not in context["seen"]:
        setup_s = float(os.environ.get("FAKE_WARM_SLOW_LOAD_S", "1.5"))
        time.sleep(setup_s)
    if _triggered("FAKE_WARM_FAIL_ON", route):
        raise RuntimeError("injected run failure")
    if _triggered("FAKE_WARM_FLOOD_ON", route):
        with open(request["output"], "wb") as output:
            for _ in range(3 * 16):
                output.write(b"1\n" * (32 << 10))
    argv = [request["artifact"], request["metrics"]] + ([request["input"]] if request.get("input") else [])
    with open(request["output"], "wb") as output:
        subprocess.run(argv, stdout=output, check=True)
    drift = float(os.environ.get("FAKE_WARM_DRIFT", "0"))
    if drift:
        with open(request["metrics"], encoding="utf-8") as handle:
            times = json.load(handle)["time_ms"]
        factor = 1 + drift * context["runs"]
        with open(request["metrics"], "w", encoding="utf-8") as handle:
            json.dump({"time_ms": [t * factor for t in times]}, handle)
    context["runs"] += 1
    with open(request["artifact"], "rb") as handle:
        code = hashlib.sha256(handle.read()).hexdigest()
    context["seen"][build] = context["seen"].get(build, 0) + 1
    if _triggered("FAKE_WARM_WRONG_CODE_ON", route) and context["seen"][build] > 1:
        code = hashlib.sha256(b"another build's code").hexdigest()
    reply = {"code_sha256": code, "path": "first run of the build" if context["seen"][build] == 1 else "a later run",
             "setup_s": setup_s}
    if _triggered("FAKE_WARM_WHY_ON", route):
        reply["why"] = "asked to say why by FAKE_WARM_WHY_ON"
    return reply
