"""One rank of a distributed job under the debugger, the others run as usual.

``cudatui --rank N -- torchrun ARGS script.py`` runs the launcher (torchrun, ``python -m
torch.distributed.run``, or any launcher that starts its ranks' Python through
``$PYTHON_EXEC`` and tells each its ``RANK``) with ``PYTHON_EXEC`` set to a shim in a private
directory (0700). The shim runs every rank's Python as usual, except the rank whose ``RANK`` is
N: that one runs the relay (:mod:`.relay`), which hands the rank's command line, environment
and directory to cudatui over a unix socket in that directory (0600, peers of another uid
refused) and waits. cudatui then runs exactly that command under the debugger, as a program of
its own (MI over gdb's stdio as always, the rank's output on the debuggee's pty, so in the
Output pane), and tells the relay the rank's exit code when it ends, which the relay exits
with: for the launcher, rank N lived and ended as the others did. The launcher's own output and
the other ranks' go to ``ranks.log`` in that directory (kept after cudatui ends).
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import signal
import socket
import struct
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Sequence
from typing import cast

from cudatui.gdbbridge.jobs import relay
from cudatui.gdbbridge.session.processes import SessionProcesses

GRACE = 0.5
"""Seconds the launcher has to stop its ranks after SIGTERM at the close, before all are killed."""


def exit_status(code: int | None, signal_name: str | None) -> int:
    """The exit status a shell gives a program that exited with ``code`` or was killed by the
    signal ``signal_name`` (``SIGSEGV``: 139)."""
    if code is not None:
        return code
    try:
        return 128 + signal.Signals[signal_name or ""].value
    except KeyError:
        return 1


class RankJobError(Exception):
    """The job could not give cudatui its rank (the launcher failed or ended first)."""


@dataclass(frozen=True)
class RankRun:
    """How the launcher started the rank: what cudatui runs under the debugger."""

    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    cwd: str


def launcher_python(launcher: Sequence[str]) -> str:
    """The Python the launcher runs its ranks with (its ``sys.executable``): the launcher itself
    when it is a Python (``python -m torch.distributed.run``), else its script's ``#!`` Python,
    else this one."""
    first = shutil.which(launcher[0]) or launcher[0]
    if os.path.basename(first).startswith("python"):
        return first
    try:
        with open(first, "rb") as f:
            line = f.readline(512).decode("utf-8", "replace")
    except OSError:
        return sys.executable
    words = line[2:].split() if line.startswith("#!") else []
    if words and os.path.basename(words[0]) == "env" and len(words) > 1:
        words = [shutil.which(words[1]) or words[1]]
    return words[0] if words and os.path.basename(words[0]).startswith("python") else sys.executable


SOCKET_ROOM = 107
"""The longest path a unix socket may have (``sun_path`` holds 108 bytes with its NUL)."""


def private_dir() -> Path:
    """A new directory only we can enter (0700), where a program may be run and whose socket
    path fits a unix socket: the temporary directory, unless it is mounted noexec or too deep
    (then $XDG_RUNTIME_DIR or ~/.cache)."""
    for base in (tempfile.gettempdir(), os.environ.get("XDG_RUNTIME_DIR"), os.path.expanduser("~/.cache")):
        if not base or len(os.fsencode(os.path.join(base, "cudatui-rank-12345678", "rank.sock"))) > SOCKET_ROOM:
            continue
        if os.path.isdir(base) and not os.statvfs(base).f_flag & os.ST_NOEXEC:
            return Path(tempfile.mkdtemp(prefix="cudatui-rank-", dir=base))
    return Path(tempfile.mkdtemp(prefix="cudatui-rank-"))


class RankJob:
    """The launcher of a distributed job with rank ``rank`` handed to cudatui (module docstring)."""

    def __init__(self, launcher: Sequence[str], rank: int, *, cwd: str | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.launcher = tuple(launcher)
        self.rank = rank
        self._cwd = cwd
        self._env = env
        self.dir = private_dir()
        self.log = self.dir / "ranks.log"
        """The launcher's output and the other ranks'."""
        self._socket = self.dir / "rank.sock"
        self._shim = self.dir / "python"
        self._server: asyncio.AbstractServer | None = None
        self._proc: asyncio.subprocess.Process | None = None
        self._processes = SessionProcesses()
        self._members: dict[int, str] = {}
        self._request: asyncio.Future[RankRun] | None = None
        self._relay: asyncio.StreamWriter | None = None
        self._told = False

    @property
    def name(self) -> str:
        """How messages name the launcher: ``torchrun``, ``torch.distributed.run``, ``launcher.py``."""
        words = list(self.launcher)
        if os.path.basename(words[0]).startswith("python"):
            words = [w for w in words[1:] if not w.startswith("-")] or words
        return os.path.basename(words[0])

    @property
    def launcher_pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    async def start(self) -> None:
        """Start the launcher (RankJobError when it cannot be)."""
        self._request = asyncio.get_running_loop().create_future()
        self._server = await asyncio.start_unix_server(self._connected, path=str(self._socket))
        os.chmod(self._socket, 0o600)
        python = launcher_python(self.launcher)
        self._shim.write_text(
            "#!/bin/sh\n"
            f'if [ "${{RANK-}}" != {shlex.quote(str(self.rank))} ]; then exec {shlex.quote(python)} "$@"; fi\n'
            f"exec {shlex.quote(sys.executable)} -I {shlex.quote(relay.__file__)} {shlex.quote(str(self._socket))} "
            f'{shlex.quote(python)} "$@"\n')
        self._shim.chmod(0o700)
        env = {**os.environ, **(self._env or {}), "PYTHON_EXEC": str(self._shim)}
        log = os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self.launcher, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=asyncio.subprocess.STDOUT,
                cwd=self._cwd, env=env, start_new_session=True)
        except OSError as exc:
            raise RankJobError(f"cannot start {self.name}: {exc.strerror or exc}") from None
        finally:
            os.close(log)
        self._processes.adopt(self._proc.pid)

    @property
    def started(self) -> bool:
        """Whether :meth:`start` started the launcher."""
        return self._proc is not None

    @property
    def rank_run(self) -> RankRun | None:
        """How the launcher started rank N, once it did (None before)."""
        return self._request.result() if self._request is not None and self._request.done() else None

    async def wait_rank(self) -> RankRun:
        """How the launcher started rank N, once it did; RankJobError when it ended first."""
        run = await self._wait_rank(None)
        assert run is not None
        return run

    async def rank_within(self, seconds: float) -> bool:
        """Whether the launcher started rank N within ``seconds``; RankJobError when it ended first."""
        return await self._wait_rank(seconds) is not None

    async def _wait_rank(self, seconds: float | None) -> RankRun | None:
        assert self._request is not None and self._proc is not None
        ended = asyncio.ensure_future(self._proc.wait())
        await asyncio.wait([cast(asyncio.Future[object], self._request), cast(asyncio.Future[object], ended)],
                           timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        if self._request.done() or not ended.done():
            ended.cancel()
            return self.rank_run
        code = self._proc.returncode
        raise RankJobError(f"{self.name} ended (exit code {code}) before starting rank {self.rank}: {self.last_line()} "
                           f"(does it run its ranks' Python through $PYTHON_EXEC, as torchrun does unless "
                           f"--no-python? Is rank {self.rank} in the job? Its output: {self.log})")

    def last_line(self) -> str:
        """The launcher's last line of output (it says why it failed), or a word saying there is none."""
        try:
            lines = [line for line in self.log.read_text(errors="replace").splitlines() if line.strip()]
        except OSError:
            lines = []
        return " ".join(lines[-1].split())[:200] if lines else "no output"

    def finished(self, code: int) -> None:
        """Rank N ended with exit code ``code``: its relay exits with it (once)."""
        if self._relay is not None and not self._told:
            self._told = True
            self._relay.write(json.dumps({"exit": code & 0xFF}).encode() + b"\n")

    async def close(self) -> None:
        """End the job: the relay exits (1 unless told), the launcher is sent SIGTERM, and what is
        left of it and its ranks is killed; the log is kept."""
        self.finished(1)
        if self._relay is not None:
            self._relay.close()
        proc = self._proc
        if proc is not None and proc.returncode is None:
            self._members = self._processes.members()
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                await asyncio.wait_for(proc.wait(), GRACE)
            except asyncio.TimeoutError:
                pass
        await self._processes.end(self._members or self._processes.members())
        if proc is not None and proc.returncode is None:
            await proc.wait()
        if self._server is not None:
            self._server.close()
        for path in (self._socket, self._shim):
            path.unlink(missing_ok=True)

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        _, uid, _ = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        line = await reader.readline() if uid == os.getuid() else b""
        try:
            asked = json.loads(line)
            run = RankRun(tuple(asked["argv"]), tuple(sorted(asked["env"].items())), str(asked["cwd"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            writer.close()
            return
        if self._request is None or self._request.done():  # the launcher restarted its ranks
            writer.write(b'{"exec": true}\n')
            writer.close()
            return
        self._relay = writer
        self._request.set_result(run)
