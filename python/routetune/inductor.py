"""routetune.inductor.apply_lock: a PyTorch program applies a promoted Inductor route to
torch._inductor.config, after routetune has decided that the lock may be used here.

The decision is ``routetune flags LOCK --format json`` (routetune.flags): a stale lock raises
StaleLock, a tampered one TamperedLock, a missing or unreadable one BadInput, and nothing is
set; with fallback=True such a lock gives the spec's default route instead (logged in the
lock's audit log, as ``flags --fallback`` does). The Inductor adapter carries a route as the
environment value ROUTETUNE_INDUCTOR_ROUTE; it is applied by the Inductor helper's own
apply_route (python/routetune_inductor.py, installed beside this package), the code every
study's build and run used, so a route means the same here as where it was measured.
"""

import os
from dataclasses import dataclass, field
from typing import Dict, Optional

from . import errors
from .locks import flags

ROUTE_VARIABLE = "ROUTETUNE_INDUCTOR_ROUTE"


@dataclass
class AppliedLock:
    """What apply_lock set: the route (its text; "" for the default), where it came from (lock or
    fallback, and the refusal that made it a fallback), the config entries set and the
    environment values exported."""

    route: str
    source: Optional[str]
    refusal: Optional[str] = None
    config: Dict[str, object] = field(default_factory=dict)
    environment: Dict[str, str] = field(default_factory=dict)


def apply_lock(lock, fallback=False, **options):
    """Sets torch._inductor.config from the Inductor route of lock (a lock file written by
    ``routetune promote``), once ``routetune flags`` has judged the lock usable here; returns
    AppliedLock. Call it before torch.compile. The route's environment values (its
    ROUTETUNE_INDUCTOR_ROUTE among them) are exported to os.environ, as the study's runs had them.
    options go to ``routetune flags`` (``spec=PATH``, ``audit=PATH``). Raises StaleLock (3),
    TamperedLock (4) or BadInput (2) without fallback, and BadInput for a lock whose route is not
    an Inductor route; nothing is set when it raises."""
    import routetune_inductor

    build = flags(lock, "json", fallback=fallback, **options)
    if ROUTE_VARIABLE not in build.environment:
        raise errors.BadInput("%s: its route is not an Inductor route (its environment has no %s; flags: %s)"
                              % (os.fspath(lock), ROUTE_VARIABLE, " ".join(build.flags) or "none"))
    assignments = routetune_inductor.parse_route(build.environment[ROUTE_VARIABLE])
    config = routetune_inductor.apply_route(route=assignments)
    os.environ.update(build.environment)
    return AppliedLock(route=build.route, source=build.source, refusal=build.refusal, config=config,
                       environment=dict(build.environment))
