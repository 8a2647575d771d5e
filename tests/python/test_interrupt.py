"""Ctrl-C while routetune.tune runs: the tuner is a child process, so the interpreter only
waits; an interrupt that reaches the interpreter alone (a notebook's) is passed on to the
child, which stops, saves the study and exits 130, and only then does routetune.Interrupted
reach the caller, with the child reaped and nothing left running."""

import os
import signal
import subprocess
import sys

import routetune
from conftest import copy_spec

import stat
import time

PROGRAM = """
import sys, routetune
try:
    routetune.tune(sys.argv[1], progress=True)
    print("FINISHED")
except routetune.Interrupted as interrupted:
    print("INTERRUPTED", interrupted.code)
"""


def session_processes(session):
    """Live (not zombie) processes of a session: pid -> command."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,sid=,stat=,args="], capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        pid, sid, state, args = line.split(None, 3)
        if int(sid) == session and not state.startswith("Z"):
            found[int(pid)] = args
    return found


def test_an_interrupt_of_the_interpreter_alone_stops_the_study_saves_it_and_leaves_no_process(tmp_path):
    # Every run takes 1 s: uninterrupted, the study would run on for half a minute and print FINISHED.
    spec = copy_spec(tmp_path, "minimal", {'command = ["{artifact}"]': 'command = ["sh", "-c", "sleep 1; {artifact}"]'})
    program = subprocess.Popen([sys.executable, "-c", PROGRAM, str(spec)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True, env=dict(os.environ))
    try:
        for line in program.stderr:  # tune's progress lines, passed on as they come
            if "ok  (default)" in line:
                break
        assert session_processes(program.pid), "the study is running"
        os.kill(program.pid, signal.SIGINT)  # the interpreter only, as a notebook's interrupt button
        out, err = program.communicate(timeout=120)
    finally:
        if program.poll() is None:
            os.killpg(program.pid, signal.SIGKILL)
            program.wait()
    assert "INTERRUPTED 130" in out, out + err
    assert session_processes(program.pid) == {}
    study = routetune.open_study(tmp_path / ".routetune" / "minimal.sqlite")
    assert study.outcome == "unfinished"
    assert study.evaluation("").status == "ok"


FINISHES_ANYWAY = """#!/bin/sh
# A routetune that takes SIGINT, finishes its work anyway and exits 0.
trap 'echo "fake routetune: SIGINT taken, finishing" >&2; exit 0' INT
touch "$2.started"  # $1 is the command, $2 the lock
while :; do sleep 0.05; done
"""

VERIFY = """
import sys, routetune
try:
    routetune.verify(sys.argv[1])
    print("RETURNED")
except routetune.Interrupted as interrupted:
    print("INTERRUPTED", interrupted.code)
"""


def test_a_ctrl_c_ends_in_interrupted_even_when_the_command_then_succeeds(tmp_path):
    fake = tmp_path / "routetune"
    fake.write_text(FINISHES_ANYWAY)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    lock = tmp_path / "model.lock"
    environment = dict(os.environ, ROUTETUNE_EXECUTABLE=str(fake))
    program = subprocess.Popen([sys.executable, "-c", VERIFY, str(lock)], stdout=subprocess.PIPE, text=True,
                               start_new_session=True, env=environment)
    try:
        started = tmp_path / "model.lock.started"
        for _ in range(1200):  # the fake's first step, within a minute
            if started.exists() or program.poll() is not None:
                break
            time.sleep(0.05)
        assert started.exists()
        os.kill(program.pid, signal.SIGINT)
        out, _ = program.communicate(timeout=60)
    finally:
        if program.poll() is None:
            os.killpg(program.pid, signal.SIGKILL)
            program.wait()
    assert out.strip() == "INTERRUPTED 130"
    assert session_processes(program.pid) == {}
