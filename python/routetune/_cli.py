"""Runs the routetune executable in a child process, argv list, never a shell: how the package
tunes and how it asks about locks.

Why a child process and not the C++ library inside this interpreter:

* Ctrl-C. ``routetune tune`` takes SIGINT and SIGTERM itself: it starts nothing more, kills the
  process groups of the builds and runs in flight, saves the study and exits 130. In a child
  that handling never replaces the interpreter's own signal handlers. The interpreter only waits;
  a Ctrl-C that reached the interpreter alone (a notebook's interrupt button) is passed on to the
  child as SIGINT, the package waits for the child to save, then raises routetune.Interrupted.
* Reaping. ``tune`` makes itself a child subreaper and reaps whatever its builds and runs leave
  behind; inside the interpreter it would adopt and reap processes the user's program owns
  (subprocess, multiprocessing, DataLoader workers), or wait on them.
* Crashes. A crash of the tuner (or of something it loads) cannot take the interpreter and its
  GPU state down with it: it is an exception, routetune.Crashed.
* One behaviour. verify, flags and inductor.apply_lock get exactly what ``routetune verify`` and
  ``routetune flags`` decide (seals, staleness, retirement, fallback), and each use is logged in
  the lock's audit log by the same code, with this command line.

The executable is $ROUTETUNE_EXECUTABLE when set, else the one the package was built or
installed with (routetune/_paths.py, written by CMake), else ``routetune`` on PATH when the
package runs from its source folder. Keyword options become command-line options by one rule
(``options_argv``), so the package lists no option of its own and the executable judges them.
"""

import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import threading

from . import errors

_STDERR_KEPT = 64 * 1024


def executable():
    """The routetune executable the package runs (see the module's docstring)."""
    given = os.environ.get("ROUTETUNE_EXECUTABLE")
    if given:
        return given
    try:
        from ._paths import EXECUTABLE
    except ImportError:
        found = shutil.which("routetune")
        if found is None:
            raise errors.Failure("no routetune executable: set ROUTETUNE_EXECUTABLE, put routetune on PATH, "
                                 "or import the package from a build tree or an install (README, From Python)")
        return found
    if not os.access(EXECUTABLE, os.X_OK):
        raise errors.Failure("the routetune executable this package was built for is not at %s (rebuild or "
                             "reinstall, or set ROUTETUNE_EXECUTABLE)" % EXECUTABLE)
    return EXECUTABLE


def _text(value):
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def options_argv(options, renamed=None):
    """Command-line items of keyword options: name=True -> --name, name=VALUE -> --name VALUE,
    False or None -> nothing, a list -> the option once per item; underscores become dashes;
    renamed maps a name that Python cannot spell (resume -> continue)."""
    argv = []
    for name, value in options.items():
        flag = "--" + (renamed or {}).get(name, name).replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            argv.append(flag)
        else:
            for item in value if isinstance(value, (list, tuple)) else [value]:
                argv += [flag, _text(item)]
    return argv


class Completed:
    """A finished command: its argv, exit code (negative: killed by that signal), stdout, stderr."""

    def __init__(self, command, code, stdout, stderr):
        self.command = command
        self.code = code
        self.stdout = stdout
        self.stderr = stderr


def _read_stderr(stream, kept, echo):
    """Reads stream to its end, echoing each line when echo, keeping the last _STDERR_KEPT
    characters in kept (a deque of lines)."""
    size = 0
    for line in iter(stream.readline, ""):
        if echo:
            sys.stderr.write(line)
            sys.stderr.flush()
        kept.append(line)
        size += len(line)
        while size > _STDERR_KEPT and len(kept) > 1:
            size -= len(kept.popleft())
    stream.close()


def _read_all(stream, into):
    into.append(stream.read())
    stream.close()


def _wait(process):
    """Waits for process; a KeyboardInterrupt meanwhile is passed on to it as SIGINT and the wait
    goes on, so the child always saves and is always reaped. Returns (code, interrupted)."""
    interrupted = False
    while True:
        try:
            return process.wait(), interrupted
        except KeyboardInterrupt:
            interrupted = True
            if process.poll() is None:
                process.send_signal(signal.SIGINT)


def run(arguments, echo_stderr=False):
    """Runs routetune with arguments (a list) and returns Completed; stderr is shown as it comes
    when echo_stderr. A Ctrl-C while it runs is passed on to it, and once it has ended (and
    saved), raises routetune.Interrupted."""
    command = [executable()] + [_text(a) for a in arguments]
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   encoding="utf-8", errors="replace", close_fds=True)
    except OSError as error:
        raise errors.Failure("cannot run %s: %s" % (command[0], error), command) from None
    stdout, stderr = [], collections.deque()
    readers = [threading.Thread(target=_read_all, args=(process.stdout, stdout), daemon=True),
               threading.Thread(target=_read_stderr, args=(process.stderr, stderr, echo_stderr), daemon=True)]
    try:
        for reader in readers:
            reader.start()
        code, interrupted = _wait(process)
    finally:
        if process.poll() is None:  # only when something other than a Ctrl-C ended the wait
            process.kill()
            process.wait()
    for reader in readers:
        reader.join()
    done = Completed(command, code, stdout[0] if stdout else "", "".join(stderr))
    if interrupted:  # the child has ended and saved what it finished, whatever its exit code
        raise errors.error_for_exit(errors.INTERRUPTED, command, done.stderr)
    return done


def parse_json(done):
    """done's stdout as JSON, or None when it printed none."""
    text = done.stdout.strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def answer(arguments, read, echo_stderr=False):
    """Runs routetune with arguments and returns read(the JSON it printed), or None when it printed
    none. A non-zero exit raises its exception with that in .details; after a success, what it
    said on stderr is shown (unless it was shown as it came)."""
    done = run(arguments, echo_stderr)
    document = parse_json(done)
    result = read(document) if isinstance(document, dict) else None
    check(done, result)
    if not echo_stderr:
        forward_stderr(done)
    return result


def check(done, details=None):
    """done when it exited 0, else raises the exception of its exit code (routetune.errors)."""
    if done.code == 0:
        return done
    raise errors.error_for_exit(done.code, done.command, done.stderr, details)


def forward_stderr(done):
    """Shows what a successful command said on stderr (warnings, a fallback), as a shell would."""
    if done.stderr:
        sys.stderr.write(done.stderr)
        sys.stderr.flush()
