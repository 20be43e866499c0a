"""The stand-in for one rank of a distributed job; run by the launcher in the rank's place.

``python -I relay.py SOCKET PYTHON ARGS...`` (started by the shim :mod:`.ranks` writes, which
the launcher runs as its Python through ``$PYTHON_EXEC``): it hands this rank's command line
(``PYTHON ARGS...``), environment and directory to cudatui over the unix socket SOCKET, so that
cudatui runs the rank under the debugger, and then waits. cudatui answers one JSON line:
``{"exit": N}`` once the rank ended (this process exits N, so the launcher sees the rank's end),
or ``{"exec": true}`` (a second start of the rank, after a restart of the job: it runs as usual).
If cudatui goes away first, it exits 1.

Standard library only, run in isolated mode: the launcher's environment cannot change it.
"""

import json
import os
import socket
import sys

HIDDEN = ("PYTHON_EXEC",)
"""Variables the launcher got from cudatui, not given to the rank."""


def main(argv: list[str]) -> int:
    path, python, args = argv[0], argv[1], argv[2:]
    command = [python, *args]
    env = {k: v for k, v in os.environ.items() if k not in HIDDEN}
    request = {"argv": command, "env": env, "cwd": os.getcwd(), "pid": os.getpid()}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        try:
            sock.connect(path)
            sock.sendall(json.dumps(request).encode() + b"\n")
            reply = sock.makefile("rb").readline()
        except OSError as exc:
            print(f"cudatui relay: cannot reach cudatui at {path}: {exc.strerror or exc}", file=sys.stderr)  # our own path
            return 1
    if not reply:
        print("cudatui relay: cudatui went away before the rank ended", file=sys.stderr)
        return 1
    answer = json.loads(reply)
    if answer.get("exec"):
        os.execve(python, command, env)
    return int(answer.get("exit", 1))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
