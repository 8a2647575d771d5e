"""routetune's bridge to PyTorch Inductor (torch.compile).

Two uses:

* ``python3 routetune_inductor.py --dump-config`` prints, as JSON, the tunable entries of
  ``torch._inductor.config``: ``{"format": "routetune-inductor-config-1", "torch_version":
  ..., "entries": [{"name", "type", "default", "values"?, "tags"?}, ...]}``. routetune's
  inductor adapter turns each entry into a knob named ``-inductor:<dotted.name>``.
* A workload calls ``routetune_inductor.apply_route()`` before ``torch.compile``. It reads the
  route from ``ROUTETUNE_INDUCTOR_ROUTE`` (route text, e.g.
  ``-inductor:max_autotune=on -inductor:triton.cudagraphs=off``) or from the JSON file named
  by ``ROUTETUNE_INDUCTOR_ROUTE_FILE`` (``{"max_autotune": "on", ...}``) and sets the entries.

``python3 routetune_inductor.py --parse-route TEXT [--path aoti]`` prints the typed assignments of
TEXT (no torch needed): it is how the conversion rules are tested without PyTorch. With
``--path`` it refuses (exit 1, one line per knob on stderr) the knobs that do not apply to that
path, as ``apply_route(path=...)`` does.

Paths: ``jit`` (``torch.compile``, the default) and ``aoti`` (an AOTInductor package built by
``torch._inductor.aoti_compile_and_package`` and run by ``aoti_load_package``). A knob that has
no effect on a path (NOT_APPLICABLE) is never silently dropped: ``apply_route`` raises
``NotApplicable`` naming it and why, so the build fails with that message. On the ``aoti`` path
``apply_route`` also sets Inductor's C++ compiler to one whose packages load
(routetune_aoti.py, beside this file).

Tunable entries: bools, ints (not bools), floats, and strings whose allowed values are known
(a ``Literal[...]`` annotation, or KNOWN_CHOICES below). Left out: entries of any other type
(callables, dicts, lists, sets, paths, ``None`` without a known type), private names and
constants (``_x``, ``TYPE_CHECKING``), and
every name with a word in SKIP_WORDS / SKIP_PREFIXES or containing one of SKIP_PARTS (debugging, tracing, caching, logging, profiling,
files and directories, compile-time parallelism, tests, safety checks, ahead-of-time and
wrapper-codegen modes, and randomness): they do not change the speed of the compiled code,
or they change what it computes.
"""

import json
import os
import sys

FORMAT = "routetune-inductor-config-1"
PREFIX = "-inductor:"

SKIP_WORDS = (
    "debug", "trace", "traces", "tracing", "cache", "caches", "caching", "log", "logs", "logging",
    "verbose", "dir", "path", "paths", "file", "files", "dump", "test", "tests", "testing", "warn",
    "warning", "warnings", "print", "save", "record", "assert", "asserts",
    "worker", "workers", "subproc", "remote", "seed", "sleep", "timeout", "linemaps",
)
SKIP_PREFIXES = ("profil",)
SKIP_PARTS = (
    "compile_threads", "benchmark_harness", "aot_inductor", "cpp_wrapper", "abi_compatible",
    "fallback_random", "deterministic", "fx_graph", "descriptive_names",
)

UNSAFE_PARTS = ("fast_math", "unsafe", "upcast", "tf32", "precision", "emulate")

# Knobs that do nothing on a path, and why: a route setting one there is refused, not
# measured as if it had applied.
NOT_APPLICABLE = {
    "aoti": {
        "triton.cudagraphs": "an AOTInductor package is run by its own C++ runner, which does not capture "
                             "CUDA graphs (torch.compile's cudagraph trees are a Python-side wrapper)",
        "triton.cudagraph_trees": "cudagraph trees wrap torch.compile's Python callable; an AOTInductor package "
                                  "has none",
    },
}


class NotApplicable(ValueError):
    """A route sets knobs that do nothing on the path it is applied to."""


KNOWN_CHOICES = {
    "max_autotune_gemm_backends": ["ATEN", "TRITON", "CPP", "ATEN,TRITON", "ATEN,TRITON,CPP", "TRITON", "CUTLASS",
                                   "ATEN,TRITON,CUTLASS"],
    "max_autotune_conv_backends": ["ATEN", "TRITON", "ATEN,TRITON"],
    "max_autotune_gemm_search_space": ["DEFAULT", "EXHAUSTIVE"],
}


def _skipped(name):
    lowered = name.lower()
    if any(part.startswith("_") or part.isupper() for part in name.split(".")):
        return True
    words = lowered.replace(".", "_").split("_")
    if any(word in SKIP_WORDS or word.startswith(SKIP_PREFIXES) for word in words):
        return True
    return any(part in lowered for part in SKIP_PARTS)


def _base_type(value_type):
    """X for Optional[X]; value_type itself otherwise."""
    try:
        import typing
        if typing.get_origin(value_type) is typing.Union:
            args = [a for a in typing.get_args(value_type) if a is not type(None)]
            if len(args) == 1:
                return args[0]
    except Exception:
        return value_type
    return value_type


def _literal_values(value_type):
    try:
        import typing
        origin = typing.get_origin(value_type)
        if origin is typing.Literal:
            return [v for v in typing.get_args(value_type)]
        if origin is typing.Union:
            for arg in typing.get_args(value_type):
                values = _literal_values(arg)
                if values:
                    return values
    except Exception:
        return None
    return None


def _entry(name, default, value_type):
    """The JSON entry of one config value, or None when it is not tunable."""
    if _skipped(name):
        return None
    entry = {"name": name}
    literal = _literal_values(value_type) if value_type is not None else None
    base = _base_type(value_type)
    if isinstance(default, bool) or (default is None and base is bool):
        entry["type"] = "bool"
        entry["default"] = default
    elif isinstance(default, int) or (default is None and base is int):
        entry["type"] = "int"
        entry["default"] = default
    elif isinstance(default, float):
        entry["type"] = "float"
        entry["default"] = default
    elif isinstance(default, str) or literal:
        choices = literal or KNOWN_CHOICES.get(name)
        if not choices:
            return None
        choices = [str(c) for c in choices]
        if isinstance(default, str) and default not in choices:
            choices.append(default)
        entry["type"] = "str"
        entry["default"] = default if isinstance(default, str) else None
        entry["values"] = choices
    else:
        return None
    tags = [t for t in ("unsafe",) if any(part in name.lower() for part in UNSAFE_PARTS)]
    if tags:
        entry["tags"] = tags
    return entry


def _config_items(config):
    """(name, default, value type) of every entry of the config module, dotted names."""
    entries = getattr(config, "_config", None)
    if isinstance(entries, dict):
        for name, entry in entries.items():
            default = getattr(entry, "default", entry)
            yield name, default, getattr(entry, "value_type", None)
        return
    defaults = getattr(config, "_default", None) or config.get_config_copy()
    for name, default in defaults.items():
        yield name, default, None


def dump_config():
    import torch
    import torch._inductor.config as config
    entries = []
    for name, default, value_type in _config_items(config):
        entry = _entry(name, default, value_type)
        if entry is not None:
            entries.append(entry)
    entries.sort(key=lambda e: e["name"])
    return {"format": FORMAT, "torch_version": torch.__version__, "entries": entries}


def parse_route(text):
    """{dotted name: value text} of the -inductor: assignments in route text."""
    assignments = {}
    for token in text.split():
        name, sep, value = token.partition("=")
        if not sep:
            raise ValueError("route token %r is not NAME=VALUE" % token)
        if name.startswith(PREFIX):
            assignments[name[len(PREFIX):]] = value
    return assignments


def typed_value(value, default=None):
    """value (route text) as the Python type of default (guessed from the text without one)."""
    if isinstance(default, bool) or (default is None and value in ("on", "off")):
        if value in ("on", "true", "True", "1"):
            return True
        if value in ("off", "false", "False", "0"):
            return False
        raise ValueError("%r is not on|off" % value)
    if isinstance(default, int) or (default is None and value.lstrip("-").isdigit()):
        return int(value)
    if isinstance(default, float):
        return float(value)
    if default is None:
        try:
            return float(value)
        except ValueError:
            return value
    return value


def read_route():
    """{dotted name: value text} from ROUTETUNE_INDUCTOR_ROUTE or ROUTETUNE_INDUCTOR_ROUTE_FILE."""
    path = os.environ.get("ROUTETUNE_INDUCTOR_ROUTE_FILE")
    if path:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        return {str(k)[len(PREFIX):] if str(k).startswith(PREFIX) else str(k): str(v) for k, v in data.items()}
    return parse_route(os.environ.get("ROUTETUNE_INDUCTOR_ROUTE", ""))


def not_applicable(assignments, path):
    """[(name, why)] of the assignments that do nothing on path ("jit" or "aoti")."""
    refused = NOT_APPLICABLE.get(path, {})
    return [(name, refused[name]) for name in sorted(assignments) if name in refused]


def check_path(assignments, path):
    """Raises NotApplicable naming every assignment that does nothing on path."""
    if path not in ("jit", "aoti"):
        raise ValueError("unknown path %r (known: jit, aoti)" % path)
    refused = not_applicable(assignments, path)
    if refused:
        raise NotApplicable("; ".join("%s%s does not apply to %s: %s" % (PREFIX, name, path, why) for name, why in refused))


def apply_route(config=None, path="jit", route=None):
    """Sets the route's entries on torch._inductor.config; returns {name: typed value}. route:
    {dotted name: value text}, by default read_route()'s. Raises NotApplicable when the route
    sets a knob that does nothing on path. On the aoti path it also sets the C++ compiler to one
    whose packages this process can load (routetune_aoti.loadable_compiler; it raises
    NoLoadableCompiler when there is none). Every value is converted, and the compiler chosen,
    before any is set, so a route that cannot be applied sets nothing."""
    if route is None:
        route = read_route()
    check_path(route, path)
    if config is None:
        import torch._inductor.config as config
    aoti_compiler = None
    if path == "aoti":
        import routetune_aoti

        aoti_compiler = routetune_aoti.loadable_compiler(config)
    settings = []
    for name, value in route.items():
        target = config
        parts = name.split(".")
        for part in parts[:-1]:
            target = getattr(target, part)
        settings.append((target, parts[-1], name, typed_value(value, getattr(target, parts[-1]))))
    applied = {}
    for target, attribute, name, typed in settings:
        setattr(target, attribute, typed)
        applied[name] = typed
    if aoti_compiler is not None:
        config.cpp.cxx = (None, aoti_compiler)
    threads = compile_threads()
    if threads is not None:
        config.compile_threads = threads
    return applied


def compile_threads(environ=None, cores=None):
    """The compile workers this build may start, or None to leave Inductor's choice alone.
    TORCHINDUCTOR_COMPILE_THREADS when set (Inductor reads it only when its config is first
    imported, which in a fork server child happened in the server); else, in a build routetune
    runs beside others (ROUTETUNE_BUILDS_AT_ONCE over 1), this process's cores divided among the
    builds, at least 1: by default each build starts one worker per core, so N builds at once
    would start N workers per core. environ and cores default to this process's."""
    environ = os.environ if environ is None else environ
    if environ.get("TORCHINDUCTOR_COMPILE_THREADS", "").strip():
        return int(environ["TORCHINDUCTOR_COMPILE_THREADS"])
    try:
        builds = int(environ.get("ROUTETUNE_BUILDS_AT_ONCE", "1"))
    except ValueError:
        return None
    if builds <= 1:
        return None
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores // builds)


def main(argv):
    if len(argv) == 2 and argv[1] == "--dump-config":
        json.dump(dump_config(), sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    if len(argv) in (3, 5) and argv[1] == "--parse-route" and (len(argv) == 3 or argv[3] == "--path"):
        assignments = parse_route(argv[2])
        try:
            check_path(assignments, argv[4] if len(argv) == 5 else "jit")
        except NotApplicable as refused:
            sys.stderr.write("%s\n" % refused)
            return 1
        typed = {name: typed_value(value) for name, value in assignments.items()}
        json.dump(typed, sys.stdout, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    sys.stderr.write("usage: routetune_inductor.py --dump-config | --parse-route TEXT [--path jit|aoti]\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
