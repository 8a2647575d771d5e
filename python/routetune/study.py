"""Studies as Python objects, read from the document ``routetune report --format json`` prints
(the C++ library renders it, through routetune._core, from the store: the package reads no
store itself). Each field is the document's key of the same name (``name`` is its "study");
a key the document lacks reads None (or empty), so older and newer routetune versions both read.
Times are seconds (medians), intervals are (low, high) 95% intervals; a loss that was not a
finite number reads back as nan, inf or -inf (the document's "loss_nonfinite").
"""

import json
import math
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple


def _core():
    try:
        from . import _core as core
    except ImportError as error:
        raise ImportError("routetune._core, the package's extension module, is not built: build routetune with "
                          "pybind11-dev and python3-dev installed (scripts/install-test-deps.sh), then import the "
                          "package from build/python or an install (README, From Python)") from error
    return core


def _interval(value) -> Optional[Tuple[Optional[float], Optional[float]]]:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return None
    return (value[0], value[1])


_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


@dataclass
class Evaluation:
    """One candidate route's result."""

    route: str
    status: str                                  # ok, inaccurate, build_failed, ..., pending
    phase: Optional[str] = None
    time: Optional[float] = None                 # median seconds; None without a measurement
    time_ci95: Optional[Tuple] = None
    build_s: Optional[float] = None
    loss: Dict[str, float] = field(default_factory=dict)   # case -> loss (nan/inf when not finite)
    message: str = ""
    speedup: Optional[float] = None              # against the default, search phase
    speedup_ci95: Optional[Tuple] = None
    confirmed: Optional[bool] = None             # re-measured interleaved with the default
    same_as: Optional[str] = None                # the route whose byte-identical artifact answered it
    route_changes: Dict[str, Optional[str]] = field(default_factory=dict)  # knob -> value where it differs from
                                                                            # the default route (None: left unset)

    @classmethod
    def from_json(cls, data):
        nonfinite = data.get("loss_nonfinite") or {}
        loss = {}
        for case, value in (data.get("loss") or {}).items():
            loss[case] = _NONFINITE.get(nonfinite.get(case), math.nan) if value is None else value
        return cls(route=data.get("route", ""), status=data.get("status", ""), phase=data.get("phase"),
                   time=data.get("time"), time_ci95=_interval(data.get("time_ci95")), build_s=data.get("build_s"),
                   loss=loss, message=data.get("message") or "", speedup=data.get("speedup"),
                   speedup_ci95=_interval(data.get("speedup_ci95")), confirmed=data.get("confirmed"),
                   same_as=data.get("same_as"), route_changes=data.get("route_changes") or {})


@dataclass
class Default:
    """The default route (the empty route: the spec's base flags)."""

    route: str
    status: str
    time: Optional[float] = None
    time_ci95: Optional[Tuple] = None

    @classmethod
    def from_json(cls, data):
        return cls(route=data.get("route", ""), status=data.get("status", ""), time=data.get("time"),
                   time_ci95=_interval(data.get("time_ci95")))


@dataclass
class Winner:
    """A confirmed route: its speedup over the default from the interleaved re-measurement."""

    route: str
    speedup: Optional[float]
    speedup_ci95: Optional[Tuple]
    artifact: Optional[str] = None
    changes: Optional[int] = None                # the minimal route's number of changes

    @classmethod
    def from_json(cls, data):
        return cls(route=data.get("route", ""), speedup=data.get("speedup"),
                   speedup_ci95=_interval(data.get("speedup_ci95")), artifact=data.get("artifact"),
                   changes=data.get("changes"))


@dataclass
class Confirmation:
    """A route re-measured interleaved with the default."""

    route: str
    speedup: Optional[float]
    speedup_ci95: Optional[Tuple]
    time: Optional[float] = None
    time_ci95: Optional[Tuple] = None
    default_time: Optional[float] = None
    default_time_ci95: Optional[Tuple] = None

    @classmethod
    def from_json(cls, data):
        return cls(route=data.get("route", ""), speedup=data.get("speedup"),
                   speedup_ci95=_interval(data.get("speedup_ci95")), time=data.get("time"),
                   time_ci95=_interval(data.get("time_ci95")), default_time=data.get("default_time"),
                   default_time_ci95=_interval(data.get("default_time_ci95")))


@dataclass
class Study:
    """A study as its store holds it. ``document`` is the whole JSON document, for keys this
    version of the package does not name; ``store`` and ``store_study`` say where it was read
    (``report`` renders it again from there)."""

    name: str
    outcome: str                                 # improved, default-stays, no-eligible-route, unfinished
    spec: Optional[str] = None
    search: Optional[str] = None
    expression: Optional[str] = None
    metric: Optional[str] = None
    schema_version: Optional[int] = None
    message: Optional[str] = None
    fingerprint: Dict[str, str] = field(default_factory=dict)
    default: Optional[Default] = None
    winner: Optional[Winner] = None
    minimal: Optional[Winner] = None
    counts: Dict[str, int] = field(default_factory=dict)
    evaluations: List[Evaluation] = field(default_factory=list)
    confirmations: List[Confirmation] = field(default_factory=list)
    wall_s: Optional[float] = None
    candidates_total: Optional[int] = None
    document: dict = field(default_factory=dict, repr=False)
    store: Optional[str] = None
    store_study: str = ""

    @classmethod
    def from_json(cls, data, store=None, store_study=""):
        """The Study of a summary document (a dict)."""
        def optional(key, make):
            value = data.get(key)
            return make(value) if isinstance(value, dict) else None

        return cls(name=data.get("study", ""), outcome=data.get("outcome", ""), spec=data.get("spec"),
                   search=data.get("search"), expression=data.get("expression"), metric=data.get("metric"),
                   schema_version=data.get("schema_version"), message=data.get("message"),
                   fingerprint=dict(data.get("fingerprint") or {}), default=optional("default", Default.from_json),
                   winner=optional("winner", Winner.from_json), minimal=optional("minimal", Winner.from_json),
                   counts=dict(data.get("counts") or {}),
                   evaluations=[Evaluation.from_json(e) for e in data.get("evaluations") or []],
                   confirmations=[Confirmation.from_json(c) for c in data.get("confirmations") or []],
                   wall_s=data.get("wall_s"), candidates_total=data.get("candidates_total"), document=data,
                   store=store, store_study=store_study)

    @property
    def speedup(self):
        """The winner's confirmed speedup over the default; 1.0 when the default stays."""
        return self.winner.speedup if self.winner else 1.0

    def evaluation(self, route):
        """The evaluation of route (its canonical text; "" is the default), or None."""
        return next((e for e in self.evaluations if e.route == route), None)

    def report(self, format="table"):
        """The study rendered again from its store (table, json, markdown, html)."""
        if self.store is None:
            raise ValueError("this Study was not read from a store it knows; use routetune.report(STORE)")
        return report(self.store, format, self.store_study)


def report(store, format="table", study=None):
    """The study in store (a .sqlite path or a postgresql:// URL; study: its name where the store
    holds several) as ``routetune report --format FORMAT`` prints it."""
    return _core().study_report(os.fspath(store), study or "", format)


def open_study(store, study=None):
    """The Study in store (a .sqlite path or a postgresql:// URL; study: its name where the store
    holds several). Raises routetune.BadInput when there is no study there."""
    location = os.fspath(store)
    return Study.from_json(json.loads(report(location, "json", study)), location, study or "")


def default_store(spec, study=None):
    """The SQLite store ``routetune tune SPEC`` uses when given no store (study: --study)."""
    return _core().default_store(os.fspath(spec), study or "")
