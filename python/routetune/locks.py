"""Locks: routetune.verify and routetune.flags ask ``routetune verify`` and ``routetune flags``
in a child process (routetune._cli says why), so a lock gets the same verdict, the same
fallback and the same audit entry from Python as from a shell. Each returns what the command
prints as JSON, as objects; a key the command does not print reads None (or empty).
"""

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import _cli


@dataclass
class Difference:
    """One field that differs between a lock and now (or, for tampering, its seal)."""

    field: str
    locked: Optional[str] = None
    current: Optional[str] = None

    @classmethod
    def from_json(cls, data):
        return cls(field=data.get("field", ""), locked=data.get("locked"), current=data.get("current"))


@dataclass
class Verification:
    """``routetune verify LOCK --json``: verdict is valid, review-due, retired, stale, tampered
    or regressed."""

    verdict: str
    lock: Optional[str] = None
    route: Optional[str] = None
    review_by: Optional[str] = None
    differences: List[Difference] = field(default_factory=list)
    tampering: List[Difference] = field(default_factory=list)
    warnings: List[str] = field(default_factory=list)
    failures: List[str] = field(default_factory=list)
    signer: Optional[str] = None
    retired: Optional[dict] = None
    speedup: Optional[dict] = None               # after rerun=True: {"value", "ci95"}
    document: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, data):
        return cls(verdict=data.get("verdict", ""), lock=data.get("lock"), route=data.get("route"),
                   review_by=data.get("review_by"),
                   differences=[Difference.from_json(d) for d in data.get("differences") or []],
                   tampering=[Difference.from_json(d) for d in data.get("tampering") or []],
                   warnings=list(data.get("warnings") or []), failures=list(data.get("failures") or []),
                   signer=data.get("signer"), retired=data.get("retired"), speedup=data.get("speedup"),
                   document=data)


@dataclass
class BuildRoute:
    """``routetune flags LOCK --format json``: the route a build uses, its flags and environment,
    and where it comes from (source: lock, fallback or route; refusal: why a fallback was given)."""

    route: str
    flags: List[str] = field(default_factory=list)
    environment: Dict[str, str] = field(default_factory=dict)
    source: Optional[str] = None
    lock: Optional[str] = None
    spec: Optional[str] = None
    refusal: Optional[str] = None
    document: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, data):
        return cls(route=data.get("route", ""), flags=list(data.get("flags") or []),
                   environment=dict(data.get("environment") or {}), source=data.get("source"), lock=data.get("lock"),
                   spec=data.get("spec"), refusal=data.get("refusal"), document=data)


def verify(lock, **options):
    """Verifies lock as ``routetune verify LOCK --json`` does and returns its Verification when the
    lock may be used (valid, review-due, retired). options are verify's command-line options
    by name (``rerun=True``, ``audit=PATH``). Raises StaleLock (3) or TamperedLock (4) with the
    Verification in .details, Failure (1) when rerun finds a regression, BadInput (2) for a
    missing or unreadable lock."""
    return _cli.answer(["verify", os.fspath(lock), "--json"] + _cli.options_argv(options), Verification.from_json)


def flags(lock, format="json", **options):
    """What ``routetune flags LOCK --format FORMAT`` prints: for json a BuildRoute, for the other
    formats (shell, make, cmake, env) the text. options are flags' command-line options by name:
    ``fallback=True`` gives the spec's default route for a lock that cannot be used (logged),
    ``spec=PATH``, ``audit=PATH``. Raises StaleLock (3), TamperedLock (4) or BadInput (2) when the
    lock cannot be used and no fallback was asked for."""
    arguments = ["flags", os.fspath(lock), "--format", format] + _cli.options_argv(options)
    if format == "json":
        return _cli.answer(arguments, BuildRoute.from_json)
    done = _cli.check(_cli.run(arguments))
    _cli.forward_stderr(done)
    return done.stdout


@dataclass
class Promotion:
    """``routetune promote STORE --lock LOCK --json``: the route put through the regression set
    and a fresh A/B, and when it passed, the lock written with its speedup ({"value", "ci95"})."""

    promoted: bool
    route: Optional[str] = None
    failures: List[str] = field(default_factory=list)
    lock: Optional[str] = None
    speedup: Optional[dict] = None
    review_by: Optional[str] = None
    owner: Optional[str] = None
    document: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_json(cls, data):
        return cls(promoted=bool(data.get("promoted")), route=data.get("route"),
                   failures=list(data.get("failures") or []), lock=data.get("lock"), speedup=data.get("speedup"),
                   review_by=data.get("review_by"), owner=data.get("owner"), document=data)


def promote(store, lock, **options):
    """Promotes a study's route into the lock file lock as ``routetune promote STORE --lock LOCK
    --json`` does; returns its Promotion. options are promote's command-line options by name
    (``route=ROUTE``, default the confirmed winner; ``owner=``, ``reason=``, ``review_after="90d"``,
    ``study=NAME`` for a store of several). Raises Failure (1) when the route is refused (the
    Promotion, with every failing case, in .details; no lock written), BadInput (2)."""
    arguments = ["promote", os.fspath(store), "--lock", os.fspath(lock), "--json"] + _cli.options_argv(options)
    return _cli.answer(arguments, Promotion.from_json)
