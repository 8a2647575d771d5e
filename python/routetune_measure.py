"""A warm measurement process for routetune (protocol routetune-measure-1, docs/measurement-protocol.md).

  routetune_measure.py WORKLOAD.py [ARG...]

routetune starts this once per GPU lane (the spec's [run] server) and sends it one request per run
of one case of one build. It keeps what is costly to make (a CUDA context, the loaded model) from
one request to the next; the WORKLOAD file says how:

  warm_setup(args)            once, with ARG...: returns a context (anything)
  warm_run(context, request)  one run: writes the case's output to request["output"] and
                              {"time_ms": ...} to request["metrics"], like the spec's run command;
                              returns {"code_sha256": HASH of the code it executed} (or {}),
                              and optionally "path": how it ran that code (in words, e.g.
                              "captured"), which the summary's code_identities list per build,
                              "why": why it ran it that way where that is worth saying (a
                              capture refused: which code ran against the build's), listed
                              per build beside the paths, and "setup_s": the seconds of this
                              run that a later run of the same build in this process will not
                              pay (a compile it keeps), which routetune leaves out of the
                              build's later runs' price

warm_run raising ProcessCorrupted (from this module) means the process can no longer be trusted
(a CUDA fault poisons the context): the reply says "crashed" and the process exits, so routetune
records the candidate as run_crashed and starts another process. Any other exception fails the
run only ("failed": run_failed), and the process serves the next request.

The pipes are ROUTETUNE_MEASURE_REQUESTS (read) and ROUTETUNE_MEASURE_REPLIES (write), named
pipes routetune made. Each request's "env" is set in os.environ for its run and restored after;
its "cwd" is the working folder of the run. End of file on the requests pipe (routetune went
away) or {"op": "quit"} ends the process.
"""

import json
import os
import sys
import traceback

PROTOCOL = "routetune-measure-1"


class ProcessCorrupted(Exception):
    """Raised by a workload when this process cannot run another request correctly."""


def load_workload(path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("routetune_warm_workload", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class _Environment:
    """Sets a request's environment and working folder for one run, and restores both."""

    def __init__(self, env, cwd):
        self.env = env or {}
        self.cwd = cwd
        self.saved = {}
        self.saved_cwd = None

    def __enter__(self):
        for name, value in self.env.items():
            self.saved[name] = os.environ.get(name)
            os.environ[name] = value
        if self.cwd:
            self.saved_cwd = os.getcwd()
            os.chdir(self.cwd)
        return self

    def __exit__(self, *exc):
        for name, value in self.saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if self.saved_cwd:
            os.chdir(self.saved_cwd)
        return False


def answer(request, workload, context):
    """The reply to one request (a dict), and whether the process must end after sending it."""
    reply = {"id": request.get("id")}
    if request.get("op") == "quit":
        reply["status"] = "bye"
        return reply, True
    if request.get("op") != "run":
        reply.update(status="failed", message="unknown op %r" % request.get("op"))
        return reply, False
    try:
        with _Environment(request.get("env"), request.get("cwd")):
            result = workload.warm_run(context, request) or {}
        reply["status"] = "ok"
        if result.get("code_sha256"):
            reply["code_sha256"] = str(result["code_sha256"])
        if result.get("path"):
            reply["path"] = str(result["path"])
        if result.get("why"):
            reply["why"] = str(result["why"])
        if isinstance(result.get("setup_s"), (int, float)) and result["setup_s"] > 0:
            reply["setup_s"] = float(result["setup_s"])
        return reply, False
    except ProcessCorrupted as corrupted:
        reply.update(status="crashed", message=str(corrupted) or type(corrupted).__name__)
        return reply, True
    except Exception as error:  # the run's own failure: this request fails, the process serves on
        traceback.print_exc()
        last = ("%s: %s" % (type(error).__name__, error)).strip().splitlines()
        reply.update(status="failed", message=last[-1] if last else type(error).__name__)
        return reply, False


def serve(requests, replies, workload, context):
    replies.write(json.dumps({"protocol": PROTOCOL, "pid": os.getpid()}) + "\n")
    replies.flush()
    for line in requests:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            return 2
        reply, done = answer(request, workload, context)
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
        if done:
            return 0 if reply["status"] == "bye" else 3
    return 0


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    requests_path = os.environ.get("ROUTETUNE_MEASURE_REQUESTS")
    replies_path = os.environ.get("ROUTETUNE_MEASURE_REPLIES")
    if not requests_path or not replies_path:
        sys.stderr.write("routetune_measure: ROUTETUNE_MEASURE_REQUESTS and ROUTETUNE_MEASURE_REPLIES must name "
                         "routetune's pipes (this process is started by routetune's [run] server)\n")
        return 2
    sys.modules.setdefault("routetune_measure", sys.modules[__name__])
    workload = load_workload(argv[1])
    context = workload.warm_setup(argv[2:])
    with open(replies_path, "w", encoding="utf-8") as replies, open(requests_path, encoding="utf-8") as requests:
        return serve(requests, replies, workload, context)


if __name__ == "__main__":
    code = main(sys.argv)
    sys.stdout.flush()
    sys.stderr.flush()
    # Ends at once: every reply is sent and every request's files are written, and the teardown
    # of a workload's interpreter (its GPU context, its compiler's worker pools, which watch their
    # parent and end themselves) took seconds after the last reply, past a study's time limit
    # (docs/benchmarks.md, issue 26, H200 of 2026-12-05 17:54 UTC).
    os._exit(code)
