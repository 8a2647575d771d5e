"""Runs a program and reports its CPU time (user + system) as {"time_ms": [t]} to METRICS.

Usage: python3 cpu_time.py METRICS PROGRAM [ARGS...]. The program's stdout and stderr pass
through; its exit code is returned, and a program killed by a signal kills this wrapper with
the same signal, so routetune sees the same status as without the wrapper. CPU time is what
the recorded studies measure on a shared machine: other processes inflate wall time far more.
"""
import json
import os
import signal
import sys


def main() -> int:
    metrics, argv = sys.argv[1], sys.argv[2:]
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    code = os.waitstatus_to_exitcode(status)
    if code == 0:
        with open(metrics, "w") as out:
            json.dump({"time_ms": [(usage.ru_utime + usage.ru_stime) * 1000.0]}, out)
    return code


if __name__ == "__main__":
    sys.exit(main())
