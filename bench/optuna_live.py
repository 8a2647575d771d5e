#!/usr/bin/python3
"""Optuna's TPE as a peer of routetune's `auto` on a live `*=~` study (issue 13, point 4).

The space is the one `auto` searches in bench/wide/run_live.sh: `routetune expand SPEC
--routes '*=~' --search fast --json` lists every knob's non-default values one change at a
time; each knob becomes one categorical Optuna parameter over its default (the knob left
out of the route) and those values. The default configuration is enqueued as trial one
(routetune measures the baseline first), then TPE (seeded) proposes BUDGET - 1 more. Each
trial's route is built with `routetune build SPEC --route ROUTE --output ARTIFACT` (the
spec's own build command, timeout and flags), and the artifact is run as the spec's [run]
says (placeholders, the spec's folder as working directory, timeout_s and relative_timeout
times the default's run time), warm-ups then repeats, timed as [timing] source says
(`reported`: the program's {"time_ms"} file; `cpu`: the child's user + system time;
`process`: wall time), and checked as [accuracy] says (rel_l2 or exact, text or f32, against
the case's reference or else the default's output; NaN or Inf where the reference is finite
fails). A failed trial (build_failed, run_failed, run_crashed, run_timeout, inaccurate) is
told to Optuna as failed; an Ok one as its median (seconds, the sum over cases). One trial
runs at a time.

Every trial goes to OUT/tpe-SEED.csv in bench/wide/collect.py's columns (strategy tpe), so
bench/wide/analyze.py can read TPE's rows beside `auto`'s. At the end the TOP best Ok routes
are confirmed the way the `auto` rows were: each by a `routetune tune SPEC --routes ROUTE
--search full` study (the default and the route, then the spec's interleaved confirmation
rounds); the highest confirmed speedup is TPE's outcome, written to OUT/tpe-SEED-outcome.csv
in collect.py's outcomes columns. If no route beats the default, the outcome is
default-stays at 1.0. Optuna's TPE leaves failed trials out of its model, so with
--failed-as F a failed trial is told instead as F times the default's time (strategy
tpe-penalty in the CSV), which lets the model learn which values fail.

Usage: optuna_live.py SPEC OUT [--seed K] [--budget 376] [--top 3] [--failed-as F] [--routetune PATH]
"""
import argparse
import csv
import hashlib
import json
import math
import pathlib
import resource
import statistics
import subprocess
import sys
import time
import tomllib

import optuna

DEFAULT = "(default)"


def knob_space(routetune, spec):
    listing = json.loads(subprocess.run([routetune, "expand", spec, "--routes", "*=~", "--search", "fast", "--json"],
                                        check=True, capture_output=True, text=True).stdout)
    values = {}
    for route in listing["candidates"]:
        if not route:
            continue
        name, value = route.split("=", 1)
        values.setdefault(name, [DEFAULT]).append(value)
    return values, len(listing["candidates"])


def read_numbers(data, form):
    if form == "f32":
        import array
        numbers = array.array("f")
        numbers.frombytes(data[: len(data) // 4 * 4])
        return list(numbers)
    return [float(token) for token in data.split()]


def loss(actual, reference, metric):
    if len(actual) != len(reference):
        return math.inf
    if any(not math.isfinite(a) and math.isfinite(r) for a, r in zip(actual, reference)):
        return math.inf
    if metric == "exact":
        return 0.0 if actual == reference else 1.0
    error = math.sqrt(sum((a - r) ** 2 for a, r in zip(actual, reference)))
    norm = math.sqrt(sum(r * r for r in reference))
    return error / norm if norm else error


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Runner:
    """Runs one artifact over the spec's cases as its [run], [timing] and [accuracy] say."""

    def __init__(self, spec_path, scratch):
        self.spec_dir = pathlib.Path(spec_path).resolve().parent
        self.spec = tomllib.loads(pathlib.Path(spec_path).read_text())
        self.scratch = scratch
        self.references = {}  # case -> numbers of the golden file or the default's output
        self.default_wall = None

    def run_once(self, artifact, case, index):
        work = self.scratch / f"run{index}"
        work.mkdir(parents=True, exist_ok=True)
        output, metrics = work / "output", work / "metrics.json"
        for path in (output, metrics):
            path.unlink(missing_ok=True)
        places = {"{artifact}": str(artifact), "{output}": str(output), "{metrics}": str(metrics),
                  "{workdir}": str(work), "{spec_dir}": str(self.spec_dir),
                  "{input}": str(self.spec_dir / case["input"]) if "input" in case else ""}
        argv = [places.get(item, item) for item in self.spec["run"]["command"]] + case.get("args", [])
        limit = self.spec["run"].get("timeout_s", 60)
        if self.default_wall is not None and "relative_timeout" in self.spec["run"]:
            limit = min(limit, max(1.0, self.spec["run"]["relative_timeout"] * self.default_wall))
        start, used = time.monotonic(), cpu_seconds()
        try:
            proc = subprocess.Popen(argv, cwd=self.spec_dir, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            stdout, _ = proc.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            return "run_timeout", None, None, None
        wall, cpu = time.monotonic() - start, cpu_seconds() - used
        if proc.returncode != 0:
            return ("run_crashed" if proc.returncode < 0 else "run_failed"), None, None, None
        source = self.spec["timing"].get("source", "process")
        if source == "reported":
            reported = json.loads(metrics.read_text())["time_ms"]
            seconds = [t / 1e3 for t in (reported if isinstance(reported, list) else [reported])]
        else:
            seconds = [cpu if source == "cpu" else wall]
        data = output.read_bytes() if "{output}" in self.spec["run"]["command"] else stdout
        return "ok", seconds, data, wall

    def evaluate(self, artifact, is_default):
        timing, accuracy = self.spec["timing"], self.spec["accuracy"]
        total = 0.0
        for case in self.spec.get("case", [{"name": "default"}]):
            samples, walls = [], []
            for index in range(timing.get("warmup", 1) + timing.get("repeats", 7)):
                status, seconds, data, wall = self.run_once(artifact, case, index)
                if status != "ok":
                    return status, None
                if index == 0:
                    numbers = read_numbers(data, accuracy.get("format", "text"))
                    name = case["name"]
                    if name not in self.references:
                        if "reference" in case:
                            raw = (self.spec_dir / case["reference"]).read_bytes()
                            self.references[name] = read_numbers(raw, accuracy.get("format", "text"))
                        elif is_default:
                            self.references[name] = numbers
                    if loss(numbers, self.references[name], accuracy.get("metric", "exact")) > accuracy.get("threshold", 0):
                        return "inaccurate", None
                if index >= timing.get("warmup", 1):
                    samples += seconds
                    walls.append(wall)
            total += statistics.median(samples)
            if is_default:
                self.default_wall = statistics.median(walls)
        return "ok", total


def build(routetune, spec, route, scratch):
    artifact = scratch / "artifact"
    artifact.unlink(missing_ok=True)
    proc = subprocess.run([routetune, "build", spec, "--route", route, "--output", str(artifact),
                           "--cache", str(scratch / "build-cache")], capture_output=True, text=True)
    if proc.returncode == 1:
        return None, (proc.stderr.strip().splitlines() or ["build failed"])[-1]
    if proc.returncode != 0:
        sys.exit(f"routetune build refused the route (exit {proc.returncode}): {proc.stderr.strip()}")
    return artifact, ""


def confirm(routetune, spec, route, store, rounds):
    """A routetune study of the default and ROUTE alone; returns (outcome, speedup, low, high, rounds)."""
    proc = subprocess.run([routetune, "tune", spec, "--routes", route, "--search", "full", "--cache", str(store), "--json"],
                          capture_output=True, text=True)
    summary = json.loads(proc.stdout)
    winner = summary.get("winner")
    if summary["outcome"] != "improved" or not winner:
        return summary["outcome"], 1.0, "", "", ""
    low, high = winner["speedup_ci95"]
    return "improved", winner["speedup"], low, high, rounds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("spec")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=int, default=376)
    parser.add_argument("--top", type=int, default=3)
    parser.add_argument("--failed-as", type=float, default=0.0,
                        help="tell a failed trial as this many times the default's time (0: as a failed trial)")
    parser.add_argument("--routetune", default=str(pathlib.Path(__file__).resolve().parent.parent / "build/routetune"))
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    strategy = "tpe" if args.failed_as <= 0 else "tpe-penalty"
    scratch = out / f"{strategy}-{args.seed}.d"
    scratch.mkdir(parents=True, exist_ok=True)
    values, fast = knob_space(args.routetune, args.spec)
    runner = Runner(args.spec, scratch)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=args.seed), direction="minimize")
    study.enqueue_trial({name: DEFAULT for name in values})
    names = sorted(values)
    measured, counts = [], {}
    started = time.monotonic()
    with open(out / f"{strategy}-{args.seed}.csv", "w", newline="") as handle:
        rows = csv.writer(handle)
        rows.writerow(["strategy", "seed", "order", "phase", "status", "median_s", "route_hash", "route"])
        for order in range(1, args.budget + 1):
            trial = study.ask()
            params = {name: trial.suggest_categorical(name, values[name]) for name in names}
            route = " ".join(f"{name}={params[name]}" for name in names if params[name] != DEFAULT)
            artifact, message = build(args.routetune, args.spec, route, scratch)
            status, median = ("build_failed", None) if artifact is None else runner.evaluate(artifact, order == 1)
            if order == 1 and status != "ok":
                sys.exit(f"the default route did not run: {status} {message}")
            counts[status] = counts.get(status, 0) + 1
            if status == "ok":
                study.tell(trial, median)
                measured.append((median, route))
            elif args.failed_as > 0:
                study.tell(trial, args.failed_as * measured[0][0])
            else:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
            rows.writerow([strategy, args.seed, order, "default" if order == 1 else "tpe", status,
                           "" if median is None else repr(median), hashlib.sha256(route.encode()).hexdigest()[:16], route])
            handle.flush()
            print(f"[{order}/{args.budget}] {status} {'' if median is None else f'{median * 1e3:.3f} ms'} "
                  f"{route.count('=')} changes {message[:100]}", file=sys.stderr, flush=True)
    search_s = time.monotonic() - started
    default_s = measured[0][0]
    best = sorted((m, r) for m, r in measured if r)[: args.top]
    confirmed = [(confirm(args.routetune, args.spec, route, scratch / f"confirm-{i}.sqlite",
                                runner.spec["timing"].get("confirm_rounds", 10)), route)
                 for i, (_, route) in enumerate(best) if default_s / _ > 1.0]
    outcome, winner = max(confirmed, key=lambda c: c[0][1] if c[0][0] == "improved" else 0.0,
                          default=(("default-stays", 1.0, "", "", ""), ""))
    if outcome[0] != "improved":
        outcome, winner = ("default-stays", 1.0, "", "", ""), ""
    with open(out / f"{strategy}-{args.seed}-outcome.csv", "w", newline="") as handle:
        rows = csv.writer(handle)
        rows.writerow(["strategy", "seed", "outcome", "speedup", "ci_low", "ci_high", "rounds", "winner"])
        rows.writerow([strategy, args.seed, outcome[0], f"{outcome[1]:.4f}",
                       *(f"{v:.4f}" if isinstance(v, float) else v for v in outcome[2:4]), outcome[4], winner])
    print(json.dumps({"seed": args.seed, "trials": args.budget, "fast": fast, "knobs": len(values), "counts": counts,
                      "search_s": round(search_s, 1), "default_ms": default_s * 1e3,
                      "best_measured": [{"speedup_own": default_s / m, "changes": r.count("="), "route": r} for m, r in best],
                      "confirmed": [{"outcome": c[0], "speedup": c[1], "ci95": [c[2], c[3]], "changes": r.count("="),
                                     "route": r} for c, r in confirmed],
                      "outcome": outcome[0], "speedup": outcome[1]}, indent=1))


if __name__ == "__main__":
    main()
