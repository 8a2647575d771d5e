"""A fork server for Python workloads whose imports dominate their cost (PyTorch: seconds per
process, for milliseconds of GPU work).

  routetune_forkserver.py call SCRIPT [ARG...]    run SCRIPT as __main__ in a fresh child of the server
  routetune_forkserver.py serve SOCKET            the server (started by the first `call`)

`call` connects to the server's Unix socket (starting the server, in its own session, when
none answers) and sends the script's argv, its working folder and its whole environment,
with its stdin, stdout and stderr as file descriptors. The server has imported the modules of
ROUTETUNE_FORKSERVER_PRELOAD (default "torch"; comma separated; "" for none) and nothing
else: no CUDA context, no compiled graph. For each call it forks a child that takes the
caller's descriptors, folder and environment, closes the server's own (its lock, the other
calls' sockets), puts itself in a process group of its own and runs the script; so every
candidate still runs in a process of its own, only without paying for the imports. The child
runs at the caller's niceness (routetune runs builds niced, [build] nice), or at the server's
where that is lower in priority: the server keeps the niceness of the `call` that started it.
`call` exits with the child's exit code, or kills itself with the child's signal. When `call`
dies (a timeout kills its process group), the server sees its socket close and kills the
child's process group.

The socket is ROUTETUNE_FORKSERVER_SOCKET, else one per user, Python executable and preload
list under the temporary folder. The server exits after ROUTETUNE_FORKSERVER_IDLE_S seconds
(default 900) without a call. Environment variables read at import time by a preloaded module
keep the server's values (for PyTorch: set TORCHINDUCTOR_* options through the route, which
the child applies, rather than through the environment of each call).
"""

import fcntl
import hashlib
import json
import os
import runpy
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

START_TIMEOUT_S = 300
PROCESS_TAG_VARIABLE = "ROUTETUNE_PROCESS_TAG"  # util/process_tree.hpp's kProcessTagVariable


def _preload():
    return [name for name in os.environ.get("ROUTETUNE_FORKSERVER_PRELOAD", "torch").split(",") if name]


def socket_path():
    given = os.environ.get("ROUTETUNE_FORKSERVER_SOCKET")
    if given:
        return given
    key = hashlib.sha256(f"{sys.executable}\n{','.join(_preload())}".encode()).hexdigest()[:12]
    return os.path.join(tempfile.gettempdir(), f"routetune-forkserver-{os.getuid()}-{key}.sock")


def _connect(path):
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(path)
        return client
    except OSError:
        client.close()
        return None


def _start_server(path):
    log = open(path + ".log", "ab")
    # The server outlives the evaluation that started it, so it must not carry that
    # evaluation's tag: routetune ends every process carrying it when the evaluation ends, and
    # would end the server (and with it every other evaluation's child) each time. A child
    # still ends with its caller (the server kills its process group), and what the child
    # starts carries its caller's environment, tag included.
    env = {k: v for k, v in os.environ.items() if k != PROCESS_TAG_VARIABLE}
    subprocess.Popen([sys.executable, os.path.abspath(__file__), "serve", path], stdin=subprocess.DEVNULL, cwd="/",
                     stdout=log, stderr=log, start_new_session=True, close_fds=True, env=env)
    log.close()


def call(argv):
    """Runs argv (SCRIPT ARG...) in a child of the server; returns only by exiting like the child."""
    path = socket_path()
    client = _connect(path)
    if client is None:
        _start_server(path)
        deadline = time.time() + START_TIMEOUT_S
        while client is None and time.time() < deadline:
            time.sleep(0.05)
            client = _connect(path)
        if client is None:
            sys.stderr.write(f"routetune_forkserver: no server answered on {path} (see {path}.log)\n")
            return 70
    request = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "nice": os.nice(0)}).encode()
    socket.send_fds(client, [len(request).to_bytes(8, "big") + request], [0, 1, 2])
    reply = b""
    while True:
        chunk = client.recv(64)
        if not chunk:
            break
        reply += chunk
    status = json.loads(reply or b'{"exit": 70}')
    if "signal" in status:
        signal.signal(status["signal"], signal.SIG_DFL)
        os.kill(os.getpid(), status["signal"])
    return status.get("exit", 70)


def _receive(connection):
    header, fds, _, _ = socket.recv_fds(connection, 8, 3)
    size = int.from_bytes(header, "big")
    body = b""
    while len(body) < size:
        chunk = connection.recv(size - len(body))
        if not chunk:
            raise ConnectionError("caller went away")
        body += chunk
    return json.loads(body), fds


def _child(request, fds, inherited):
    os.setpgid(0, 0)
    for fd in inherited:  # the server's lock and the other calls' sockets: see _start_child
        try:
            os.close(fd)
        except OSError:
            pass
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    lower_by = int(request.get("nice", 0)) - os.nice(0)
    if lower_by > 0:  # a niced caller (a build) gets a niced child; a child never runs above the server
        os.nice(lower_by)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = list(request["argv"])
    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
    code = 0
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if not isinstance(done.code, int) and done.code is not None:
            sys.stderr.write(f"{done.code}\n")
    except BaseException:  # the script's own failure: report it as the script would
        import traceback

        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _start_child(connection, listener, others):
    """Reads one request and forks its child (on the main thread: no other thread holds a lock).
    others: the server's descriptors besides these two (its lock, the sockets of the calls still
    running), which the child closes. A fork copies every descriptor, and a call ends when its
    socket closes: a child holding another call's socket kept that call waiting until the child
    ended (on the H200, builds done in 24 s waited for a later one that ran for minutes), and a
    child holding the lock kept a new server from starting."""
    try:
        request, fds = _receive(connection)
    except (OSError, ValueError, ConnectionError):
        connection.close()
        return None
    inherited = [fd for fd in others if fd >= 0]
    pid = os.fork()
    if pid == 0:
        listener.close()
        connection.close()
        _child(request, fds, inherited)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass
    for fd in fds:
        os.close(fd)
    return pid


def _wait_child(pid, connection):
    """Waits for the child, killing its process group when the caller goes away first."""
    with connection:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            readable, _, _ = select.select([connection], [], [], 0.05)
            if readable and not connection.recv(1, socket.MSG_PEEK):
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
                return
        reply = {"signal": os.WTERMSIG(status)} if os.WIFSIGNALED(status) else {"exit": os.WEXITSTATUS(status)}
        try:
            connection.sendall(json.dumps(reply).encode())
        except OSError:
            pass


def serve(path):
    """Binds path (unless a live server holds its lock), preloads, and forks a child per call."""
    lock = open(path + ".lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0
    for name in _preload():
        __import__(name)
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        sys.stderr.write("routetune_forkserver: a preloaded module initialised CUDA; children could not use it\n")
        return 1
    if os.path.exists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    idle_s = float(os.environ.get("ROUTETUNE_FORKSERVER_IDLE_S", "900"))
    active = []  # (thread, connection) of each call still running
    last = time.time()
    while True:
        active = [(thread, connection) for thread, connection in active if thread.is_alive()]
        if active:
            last = time.time()
        elif time.time() - last > idle_s:
            break
        readable, _, _ = select.select([listener], [], [], 1.0)
        if readable:
            connection, _ = listener.accept()
            others = [lock.fileno()] + [running.fileno() for _, running in active]
            pid = _start_child(connection, listener, others)
            if pid is not None:
                thread = threading.Thread(target=_wait_child, args=(pid, connection), daemon=True)
                thread.start()
                active.append((thread, connection))
    listener.close()
    if os.path.exists(path):
        os.unlink(path)
    return 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "call":
        return call(argv[2:])
    if len(argv) == 3 and argv[1] == "serve":
        return serve(argv[2])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
