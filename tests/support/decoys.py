"""Unrelated processes that cudatui must never signal, and debuggers and recordings that name them.

A decoy is ``setsid bash -c 'sleep 300 & exec sleep 301'``: a process P in a session of its own
with a sibling in it, as any user's shell job would be. :func:`naming` writes a copy of a real
recording whose ``=thread-group-started`` names P; :func:`lying_gdb` writes a debugger (a proxy
in front of GNU gdb) that reports P as its debuggee.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from .processes import gone, start_time
from .wait import wait_until

STARTED = re.compile(r'(=thread-group-started,id="[^"]*",pid=")\d+(")')
"""The record that tells a front end its debuggee's pid."""


@dataclass
class Decoy:
    pid: int
    """The process in its own session (``sleep 301``)."""
    sibling: int
    """The other process of its session (``sleep 300``)."""
    started: tuple[str | None, str | None]

    def alive(self) -> bool:
        """Whether both still run (the same processes: a reused pid does not count)."""
        return not gone(self.pid, self.started[0]) and not gone(self.sibling, self.started[1])

    def end(self) -> None:
        for pid in (self.pid, self.sibling):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def start_decoy(where: Path) -> Decoy:
    """A decoy in its own session, not a child of this process (its starter exits at once)."""
    pid_file, sibling_file = where / "decoy.pid", where / "decoy-sibling.pid"
    subprocess.run(["bash", "-c", f"setsid bash -c 'sleep 300 & echo $! > {sibling_file}; echo $$ > {pid_file}; "
                    "exec sleep 301' </dev/null >/dev/null 2>&1 &"], check=True)
    wait_until(lambda: pid_file.exists() and sibling_file.exists() and pid_file.read_text().endswith("\n"),
               why="the decoy and its sibling")
    pid, sibling = int(pid_file.read_text()), int(sibling_file.read_text())
    wait_until(lambda: Path(f"/proc/{pid}/comm").read_text().strip() == "sleep", why="the decoy's exec")
    return Decoy(pid, sibling, (start_time(pid), start_time(sibling)))


def naming(recording: Path, pid: int, out: Path, first_stop: bool = False) -> Path:
    """A copy of ``recording`` (JSON lines, gzip or not) whose debuggee is ``pid``, whole or
    (``first_stop``) up to its first stop and the queries there, as while the instructor's session
    is still being written; the recording itself is never changed. Fails if it names no debuggee."""
    opener = gzip.open if recording.suffix == ".gz" else open
    with opener(recording, "rt") as f:
        entries = [json.loads(line) for line in f if line.strip()]
    if first_stop:
        stop = next(i for i, entry in enumerate(entries) if str(entry.get("line", "")).startswith("*stopped"))
        resume = next((i for i, entry in enumerate(entries[stop:], stop)
                       if entry.get("dir") == "in" and "-exec-" in entry.get("line", "")), len(entries))
        entries = entries[:resume]
    named = 0
    for entry in entries:
        line = entry.get("line")
        if entry.get("dir") == "out" and isinstance(line, str) and STARTED.search(line):
            entry["line"] = STARTED.sub(rf"\g<1>{pid}\g<2>", line)
            named += 1
    assert named, f"{recording} names no debuggee"
    out.write_text("".join(json.dumps(entry) + "\n" for entry in entries))
    return out


LYING_GDB = '''#!{python}
"""GNU gdb behind a pipe that reports pid {pid} as the debuggee."""
import re, subprocess, sys
gdb = subprocess.Popen(["gdb", *sys.argv[1:]], stdout=subprocess.PIPE)
for line in gdb.stdout:
    sys.stdout.buffer.write(re.sub(rb'(=thread-group-started,id="[^"]*",pid=")\\d+', rb"\\g<1>{pid}", line))
    sys.stdout.buffer.flush()
sys.exit(gdb.wait())
'''


def lying_gdb(pid: int, out: Path) -> Path:
    """An executable debugger at ``out``: GNU gdb whose ``=thread-group-started`` names ``pid``."""
    out.write_text(LYING_GDB.format(python=sys.executable, pid=pid))
    out.chmod(0o755)
    return out
