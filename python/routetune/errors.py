"""The exceptions of the routetune package, and the one table from the command line's exit codes
to them (``EXIT_CODES``). Every function of the package raises through it: a child process of
the routetune executable by its exit code (``error_for_exit``), the extension module by the C++
library's error type of the same meaning (BadInput for UsageError, as the command line exits 2).
"""

import signal


class _Exit:
    """What every exception of the package carries. code: the exit code it stands for; command:
    the argv that ran (None for a library call); stderr: what the command said on stderr (its
    last lines); details: what it printed on stdout, as the package reads it (a Study, a
    Verification, ...), else None."""

    code = 1

    def __init__(self, message, command=None, stderr="", details=None, code=None):
        super().__init__(message)
        self.message = message
        self.command = command
        self.stderr = stderr
        self.details = details
        if code is not None:
            self.code = code


class Error(_Exit, Exception):
    """A routetune command or library call that did not succeed (see _Exit for its fields)."""


class Failure(Error):
    """Exit 1: a runtime failure (for tune: also a study that ended with no eligible route; its
    study is then in details). For verify --rerun: the lock's route regressed."""

    code = 1


class BadInput(Error):
    """Exit 2: bad input (spec, expression, option, lock file, store); nothing ran."""

    code = 2


class StaleLock(Error):
    """Exit 3: the environment is not the one recorded: a lock's (verify, flags; details hold the
    differences) or, for tune with resume=True, the study's fingerprint."""

    code = 3


class TamperedLock(Error):
    """Exit 4: a lock (or its audit log) does not match its seal; none of its flags is used."""

    code = 4


class ReviewVerdict(Error):
    """Exit 5: a review's verdict is other than keep (re-tune or retire)."""

    code = 5


class Crashed(Failure):
    """The routetune executable was killed by a signal (code: the negative signal number)."""


class Interrupted(_Exit, KeyboardInterrupt):
    """Exit 130: interrupted (Ctrl-C or SIGTERM); the study's state is saved and resume=True goes
    on. A KeyboardInterrupt, so a Ctrl-C still stops a script that catches routetune.Error."""

    code = 130


INTERRUPTED = 130

EXIT_CODES = {
    1: Failure,
    2: BadInput,
    3: StaleLock,
    4: TamperedLock,
    5: ReviewVerdict,
    INTERRUPTED: Interrupted,
}


def error_for_exit(code, command, stderr="", details=None):
    """The exception for a routetune command that exited with code: EXIT_CODES, Failure for a code
    not in it; a negative code is a death by that signal: Interrupted for SIGINT (a Ctrl-C before
    the command took the signal itself), else Crashed."""
    if code == -signal.SIGINT:
        code = INTERRUPTED
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "signal %d" % -code
        message = "%s was killed by %s" % (command[0] if command else "routetune", name)
        return Crashed(_with_stderr(message, stderr), command, stderr, details, code)
    error_class = EXIT_CODES.get(code, Failure)
    message = "routetune %s exited %d" % (command[1] if command and len(command) > 1 else "", code)
    return error_class(_with_stderr(message, stderr), command, stderr, details, code)


def _with_stderr(message, stderr):
    said = [line for line in stderr.strip().splitlines() if line.strip()]
    return message + (": " + "\n".join(said[-20:]) if said else "")
