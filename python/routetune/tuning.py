"""routetune.tune: a study run by the routetune executable in a child process (routetune._cli
says why), returned as a Study."""

import os

from . import _cli, errors
from .study import Study, default_store

# Options tune sets itself: it reads the summary JSON, so the command must print it alone.
_RESERVED = ("json", "wide", "dry_run", "cache")


def tune(spec, progress=True, **options):
    """Tunes spec (a TOML file) as ``routetune tune SPEC --json`` does and returns its Study.

    options are tune's command-line options by name: ``routes="-O=[2|3]"``, ``search="mixed"``,
    ``store=PATH_OR_URL``, ``study=NAME``, ``max_routes=20``, ``time_limit="5m"``, ``jobs=2``,
    ``seed=1``, ``keep_artifacts=True``, ``minimize=True``, ``output=PATH``, ``audit=PATH``;
    ``resume=True`` is --continue. progress: show tune's progress lines on stderr as they come.

    Raises the exception of tune's exit code (routetune.errors): BadInput (2) for a bad spec or
    option, StaleLock (3) when resume finds another environment, Failure (1) also when the study
    ended with no eligible route (its Study in .details), Interrupted (130) after a Ctrl-C, once
    the study is saved.
    """
    for name in _RESERVED:
        if name in options:
            raise TypeError("tune() sets %s itself; the store is store=" % name)
    arguments = ["tune", os.fspath(spec), "--json"] + _cli.options_argv(options, {"resume": "continue"})
    study = _cli.answer(arguments, lambda summary: Study.from_json(summary, *_where(spec, options)), progress)
    if study is None:
        raise errors.Failure("routetune tune printed no study summary", arguments)
    return study


def _where(spec, options):
    """(store, study) of the study tune ran: the options', else the spec's default store."""
    store = options.get("store")
    study = options.get("study") or ""
    if store is not None:
        return os.fspath(store), study
    try:
        return default_store(spec, study), study
    except (ImportError, errors.Error):
        return None, study
