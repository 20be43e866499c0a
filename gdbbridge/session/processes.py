"""Every process a debugger session started, found again and killed when it closes.

gdb runs in a session of its own (``start_new_session``). The debuggee GNU gdb starts without
job control stays in it, so do gdb's ``shell`` commands, even once gdb itself is killed; a
process that calls ``setsid()`` leaves it. So, where the kernel lets us (cgroup v2, a directory
we may create under our own cgroup), the debugger is moved into a cgroup of its own as soon as
it has started, before its first command (gdb forks nothing before it is asked to), and
everything it ever starts stays there whatever it does: closing kills the cgroup. A guardian
(:data:`GUARDIAN`, a shell started beside the session, outside its cgroup and the terminal's
session) holds the read end of a pipe whose write end only cudatui has: when cudatui ends in any
way, a SIGKILL included, the guardian reads its end and kills the cgroup. Elsewhere the
members are found in /proc when the session closes: the processes of gdb's session and of the
debuggee's session and process group, and every descendant of those; a ``setsid()`` process
whose parent exited before the close has been re-parented to init and is missed.

A pid that the debugger (or a recording served as one) merely reports is never trusted: the
debuggee of ``=thread-group-started`` joins the session only when it is one of the session's
processes at that moment (in its cgroup, or below the debugger in the process tree), and a
signal goes to a process only when :meth:`SessionProcesses.owns` finds it there at the time of
the signal. A replay's recording carries another machine's pids; on this machine they may be
anyone's (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path
from collections.abc import Callable

REAP_WAIT = 2.0
"""Seconds a close waits for killed members to be gone before it removes their cgroup."""
GUARDIAN = ("trap '' HUP INT TERM; cat > /dev/null; echo 1 2>/dev/null > \"$1/cgroup.kill\" || "
            "kill -9 $(cat \"$1/cgroup.procs\") 2>/dev/null; rmdir \"$1\" 2>/dev/null; exit 0")
"""The guardian's shell script (``$1``: the cgroup): once its standard input ends, kill the cgroup."""


def proc_stat(pid: int) -> tuple[str, int, int, int, str] | None:
    """(state, parent, process group, session, start time) of ``pid`` from /proc, or None."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[3]), fields[19].decode()


def start_time(pid: int | None) -> str | None:
    """The start time of ``pid`` (field 22 of its stat), to tell it from a reused pid."""
    stat = proc_stat(pid) if pid else None
    return stat[4] if stat else None


class SessionProcesses:
    """The processes of one debugger session: a cgroup (``cgroup``) or, without one (``use_cgroup``
    off, or none can be made), the sessions and groups noted and their descendants."""

    def __init__(self, use_cgroup: bool = True) -> None:
        self._use_cgroup = use_cgroup
        self.cgroup: Path | None = None
        """The session's cgroup directory, while there is one."""
        self._roots: dict[int, str] = {}
        """The debugger and each debuggee: pid -> start time."""
        self._sessions: set[int] = set()
        self._groups: set[int] = set()
        self._guardian: tuple[subprocess.Popen[bytes], int] | None = None
        """The guardian and the write end of its pipe, while the cgroup lives."""
        mine = proc_stat(os.getpid())
        self._own = (mine[2], mine[3]) if mine else (os.getpgrp(), os.getsid(0))

    def adopt(self, pid: int) -> None:
        """The debugger ``pid`` has just been started by us: track it and all it will start."""
        self._take(pid)
        if self._use_cgroup:
            self.cgroup = _new_cgroup(pid)
            if self.cgroup is not None:
                self._guardian = _guard(self.cgroup)

    def note(self, pid: int | None) -> bool:
        """The debugger reports ``pid`` as its debuggee: it belongs to the session, with its session
        and process group, only if it is one of the session's processes now (the debugger started
        it); a pid that is anyone else's is ignored. Returns whether it was taken."""
        return pid is not None and self.owns(pid) and self._take(pid)

    def owns(self, pid: int) -> bool:
        """Whether ``pid`` is one of the session's processes now: in its cgroup, or started by the
        debugger (directly or below it). Asked at the time of a signal, never from a stored pid."""
        return pid > 0 and pid in self.members()

    def _take(self, pid: int) -> bool:
        stat = proc_stat(pid)
        if stat is None:
            return False
        self._roots[pid] = stat[4]
        self._sessions |= {stat[3]} - {self._own[1]}
        self._groups |= {stat[2]} - {self._own[0]}
        return True

    def members(self) -> dict[int, str]:
        """The live processes of the session now: pid -> start time."""
        if self.cgroup is not None:
            return {pid: started for pid in _cgroup_pids(self.cgroup) if (started := start_time(pid))}
        table = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit() and (stat := proc_stat(int(entry.name))) and stat[0] not in "ZX":
                table[int(entry.name)] = stat
        found = {pid for pid, (_, _, group, session, _) in table.items()
                 if session in self._sessions or group in self._groups}
        found |= {pid for pid, started in self._roots.items() if pid in table and table[pid][4] == started}
        children: dict[int, list[int]] = {}
        for pid, stat in table.items():
            children.setdefault(stat[1], []).append(pid)
        todo = list(found)
        while todo:
            for child in children.get(todo.pop(), ()):
                if child not in found:
                    found.add(child)
                    todo.append(child)
        found.discard(os.getpid())
        return {pid: table[pid][4] for pid in found}

    async def end(self, members: dict[int, str]) -> None:
        """Kill every process of the session: the cgroup's, or ``members`` (found before the
        debugger exited) and what they started since; wait until they are gone."""
        cgroup = self.cgroup
        if cgroup is None:
            _stop_and_kill(members, self.members)
            return
        try:
            (cgroup / "cgroup.kill").write_text("1")
        except OSError:  # a kernel before 5.14
            _stop_and_kill(self.members(), self.members)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REAP_WAIT
        while _cgroup_pids(cgroup) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        try:
            cgroup.rmdir()
            self.cgroup = None
        except OSError:
            pass
        if self._guardian is not None:
            guardian, fd = self._guardian
            self._guardian = None
            os.close(fd)  # the guardian ends (its cgroup is gone, or killed again: empty)
            while guardian.poll() is None and loop.time() < deadline + REAP_WAIT:
                await asyncio.sleep(0.01)


def _stop_and_kill(members: dict[int, str], again: Callable[[], dict[int, str]]) -> None:
    """SIGSTOP ``members`` and whatever ``again()`` finds next until nothing new appears (a
    stopped process forks no more), then SIGKILL them all (same start time only)."""
    stopped: dict[int, str] = {}
    todo = dict(members)
    while todo:
        for pid, started in todo.items():
            if start_time(pid) == started:
                _signal(pid, signal.SIGSTOP)
        stopped.update(todo)
        todo = {pid: started for pid, started in again().items() if pid not in stopped}
    for pid, started in stopped.items():
        if start_time(pid) == started:
            _signal(pid, signal.SIGKILL)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _guard(cgroup: Path) -> tuple[subprocess.Popen[bytes], int] | None:
    """Start the guardian of ``cgroup``; it and the pipe end that keeps it waiting (None if it
    cannot start: the close still kills the cgroup)."""
    read, write = os.pipe()  # not inherited by what cudatui starts later
    try:
        guardian = subprocess.Popen(["sh", "-c", GUARDIAN, "cudatui-guardian", str(cgroup)], stdin=read,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    except OSError:
        os.close(write)
        return None
    finally:
        os.close(read)
    return guardian, write


def _cgroup_pids(cgroup: Path) -> list[int]:
    try:
        return [int(line) for line in (cgroup / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _new_cgroup(pid: int) -> Path | None:
    """A new cgroup below ours holding ``pid``, or None where none can be made or joined."""
    parent = _own_cgroup()
    if parent is None:
        return None
    for stale in parent.glob("cudatui-*"):  # left by a cudatui that was killed: removed once empty
        owner = stale.name.split("-")[1]
        if owner.isdigit() and start_time(int(owner)) is None:
            try:
                stale.rmdir()
            except OSError:
                pass
    path = parent / f"cudatui-{os.getpid()}-{pid}"
    try:
        path.mkdir()
    except OSError:
        return None
    try:
        (path / "cgroup.procs").write_text(str(pid))
    except OSError:
        path.rmdir()
        return None
    return path


def _own_cgroup() -> Path | None:
    """The directory of our own cgroup v2, or None without a cgroup2 mount that shows it."""
    try:
        ours = next(line[3:] for line in Path("/proc/self/cgroup").read_text().splitlines() if line.startswith("0::"))
        mounts = Path("/proc/self/mountinfo").read_text().splitlines()
    except (OSError, StopIteration):
        return None
    for line in mounts:
        fields, _, fs = line.partition(" - ")
        parts = fields.split()
        if fs.split()[:1] == ["cgroup2"] and len(parts) > 4:
            root, mountpoint = parts[3], parts[4]
            if ours == root or ours.startswith(root.rstrip("/") + "/"):
                return Path(mountpoint) / ours[len(root):].lstrip("/")
    return None
