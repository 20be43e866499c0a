"""What a user sees on the GPU box, in a real terminal (tmux): a PyTorch index assert, an attach to a
spinning kernel, and racecheck's two sides of a hazard (issue 32), each at 80x24 and 160x48.

Usage: ``python3 scripts/h200_screens.py OUTPUT_DIR [CASE ...]`` (on a box with cuda-gdb,
compute-sanitizer, nvcc, torch and tmux). Each case starts ``cudatui`` in a tmux session of the
size, waits for the screen to show what the case is about (a pattern, 180 s at most), saves the
screen as text, presses the case's keys (saving the screen after each), then quits with ``q``. The
screens go to OUTPUT_DIR/<case>-<size>.txt with the seconds each took to appear.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((80, 24), (160, 48))
WAIT_S = 180.0


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    shows: str
    """A pattern the screen shows once the case's screen is up."""
    keys: tuple[tuple[str, str], ...] = field(default=())
    """(key, pattern the screen shows after it) pairs."""


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", "h200", *args], capture_output=True, text=True, check=False).stdout


def wait_for(pattern: str, limit: float = WAIT_S) -> tuple[str, bool]:
    deadline = time.monotonic() + limit
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", "s")
        if re.search(pattern, screen):
            return screen, True
        time.sleep(0.2)
    return screen, False


def run(case: Case, size: tuple[int, int], out: Path) -> str:
    command = " ".join(shlex.quote(a) for a in (sys.executable, "-m", "cudatui", *case.argv))
    tmux("kill-server")
    started = time.monotonic()
    tmux("new-session", "-d", "-s", "s", "-x", str(size[0]), "-y", str(size[1]), "-e", "TERM=xterm-256color",
         f"cd {shlex.quote(str(ROOT))} && {command}; echo EXITED rc=$?; sleep 30")
    screen, shown = wait_for(case.shows)
    took = time.monotonic() - started
    parts = [f"=== {case.name} {size[0]}x{size[1]}: {' '.join(case.argv)}\n"
             f"=== {'shown' if shown else 'NOT shown'} /{case.shows}/ after {took:.1f} s\n{screen}"]
    for key, pattern in case.keys if shown else ():
        tmux("send-keys", "-t", "s", key)
        screen, seen = wait_for(pattern, 60)
        parts.append(f"=== after {key!r}: {'shown' if seen else 'NOT shown'} /{pattern}/\n{screen}")
    tmux("send-keys", "-t", "s", "q")
    wait_for("EXITED rc=", 30)
    tmux("kill-server")
    (out / f"{case.name}-{size[0]}x{size[1]}.txt").write_text("\n".join(parts))
    return f"{case.name} {size[0]}x{size[1]}: {'shown' if shown else 'NOT shown'} after {took:.1f} s"


def spinning(tmp: Path) -> subprocess.Popen[str]:
    exe = tmp / "spin"
    subprocess.run(["nvcc", "-g", "-G", "-o", str(exe), str(ROOT / "tests/fixtures/c/jobs/spin.cu")], check=True)
    spin = subprocess.Popen([str(exe)], stdout=subprocess.PIPE, text=True, cwd=tmp)
    assert spin.stdout is not None
    spin.stdout.readline()
    return spin


def main(argv: list[str]) -> int:
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    wanted = set(argv[1:]) or {"torch_assert", "attach", "racecheck"}
    spin = spinning(out) if "attach" in wanted else None
    cases = [
        Case("torch_assert", ("scripts/own_programs/torch_index.py",), r"[Aa]ssert", (("E", r"assert"),)),
        Case("racecheck", ("sanitize", "--tool", "racecheck", "kernels/demos/tile.py"), r"Write|Read",
             (("d", r"1|2"),)),
    ]
    if spin is not None:
        cases.append(Case("attach", ("--pid", str(spin.pid)), r"stopped .*attached",
                          (("5", r"cudaDeviceSynchronize|main"), ("c", r"running"), ("C-c", r"stopped"))))
    try:
        for case in cases:
            if case.name not in wanted:
                continue
            for size in SIZES:
                print(run(case, size, out), flush=True)
    finally:
        if spin is not None:
            spin.kill()
            spin.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
