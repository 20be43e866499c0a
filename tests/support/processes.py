"""Processes from /proc: what a test started, and whether it is gone (reaped, not a zombie)."""

from __future__ import annotations

import os
from pathlib import Path

from .wait import wait_until, within


def stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the process's name (field 3, the state, first), or None
    when it no longer exists. Read as bytes: a name is any bytes (the hostile-name tests run
    programs named ``prog\\xff``, which a look at every process meets)."""
    try:
        return Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].decode("ascii").split()
    except (OSError, IndexError):
        return None


def start_time(pid: int) -> str | None:
    """Field 22 of /proc/PID/stat (tells a pid from a reused one), or None when it is gone."""
    fields = stat_fields(pid)
    return fields[19] if fields is not None and len(fields) > 19 else None


def proc_stat(pid: int) -> tuple[str, int] | None:
    """(state letter, parent pid) of ``pid``, or None when it no longer exists."""
    fields = stat_fields(pid)
    return (fields[0], int(fields[1])) if fields is not None else None


def descendants(root: int) -> dict[int, str]:
    """Every live (non-zombie) process below ``root``, by parent-pid walk: pid -> start time."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = proc_stat(int(entry.name))
            if stat is not None and stat[0] not in "ZX":
                children.setdefault(stat[1], []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        started = start_time(pid)
        if started is not None:
            found[pid] = started
            todo.extend(children.get(pid, []))
    return found


def gone(pid: int, started: str | None = None) -> bool:
    """Whether ``pid`` has ended: absent, reused by another process, or a zombie that is not
    ours to reap (re-parented to init; our own children must be reaped, not left as zombies)."""
    stat = proc_stat(pid)
    if stat is None or (started is not None and start_time(pid) != started):
        return True
    return stat[0] in "ZX" and stat[1] != os.getpid()


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (exists and is not a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = proc_stat(pid)
    return stat is not None and stat[0] != "Z"


def wait_gone(pids: dict[int, str], timeout: float) -> dict[int, str]:
    """Wait up to ``timeout`` s for every pid to end; returns the survivors."""

    def left() -> dict[int, str]:
        return {pid: started for pid, started in pids.items() if not gone(pid, started)}

    within(lambda: not left(), timeout)
    return left()


def wait_ended(pid: int, why: str) -> None:
    """Until ``pid`` no longer runs (see :func:`alive`); ``why`` names what should have ended it."""
    wait_until(lambda: not alive(pid), why=why, every=0.2)


def kill_all(pids: dict[int, str]) -> None:
    """Test cleanup: SIGKILL those of ``pids`` still running (same start time only)."""
    for pid, started in pids.items():
        if not gone(pid, started):
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass


def children_named(pid: int, name: str) -> list[int]:
    """The descendants of ``pid`` whose command is ``name``."""
    found, todo = [], [pid]
    while todo:
        try:
            tasks = list(Path(f"/proc/{todo.pop()}/task").glob("*/children"))
        except OSError:  # it ended meanwhile: it has no children to list
            continue
        for task in tasks:
            try:
                children = [int(child) for child in task.read_text().split()]
            except OSError:
                continue
            todo.extend(children)
            found += [child for child in children if _comm(child) == name]
    return found


def _comm(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/comm").read_bytes().decode("utf-8", "replace").strip()
    except OSError:
        return None


def in_directory(directory: Path) -> list[int]:
    """The live processes whose working directory is ``directory``."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and Path(os.readlink(proc / "cwd")) == directory and \
                    (stat := proc_stat(int(proc.name))) is not None and stat[0] not in "ZX":
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def resident_bytes() -> int:
    """This process's resident memory now, in bytes."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
