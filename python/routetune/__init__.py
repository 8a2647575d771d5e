"""routetune from Python: tune a spec, read studies as objects, check and apply locks.

    import routetune
    study = routetune.tune("spec.toml", max_routes=20)     # the routetune executable, in a child
    study = routetune.open_study(".routetune/name.sqlite")  # the C++ library, through routetune._core
    print(study.outcome, study.winner)
    routetune.promote(study.store, lock="model.lock")       # the regression set and a fresh A/B
    routetune.verify("model.lock")                          # raises StaleLock, TamperedLock, ...
    routetune.inductor.apply_lock("model.lock")             # torch._inductor.config from the lock

Errors are the exceptions of routetune.errors, one per exit code of the command line
(errors.EXIT_CODES). README, section "From Python", says how to import the package from a
build tree and after cmake --install.
"""

from . import errors, inductor
from .errors import (BadInput, Crashed, Error, Failure, Interrupted, ReviewVerdict, StaleLock,
                     TamperedLock)
from .locks import BuildRoute, Difference, Promotion, Verification, flags, promote, verify
from .study import (Confirmation, Default, Evaluation, Study, Winner, default_store, open_study,
                    report)
from .tuning import tune

__all__ = [
    "BadInput", "BuildRoute", "Confirmation", "Crashed", "Default", "Difference", "Error", "Evaluation",
    "Failure", "Interrupted", "Promotion", "ReviewVerdict", "StaleLock", "Study", "TamperedLock", "Verification",
    "Winner", "default_store", "errors", "flags", "inductor", "open_study", "promote", "report", "tune", "verify",
]
