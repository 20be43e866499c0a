"""Record, THROUGH THE REAL UI on a GPU box, a kernel breakpoint whose condition is true in three
resident blocks: the stop, the threads-at-the-breakpoint line (the `-cuda-info-threads` ranges at its line)
and ``T`` pressed to move the focus through the ranges it lists; then continue to the exit,
counting the stops. The recording is replayed in CI (a replay test of tui/panes/bp_threads.py).

Usage (on the GPU box, from the repository root; ~1 minute)::

    PYTHONPATH=/tmp/site:$PWD python scripts/gpu_threads_at_bp.py [OUT.jsonl]

It builds scripts/own_programs/three_blocks.cu with ``nvcc -g -G`` into a temporary directory,
runs it under cuda-gdb in DebuggerApp (live, ``--record``) driven by Textual's Pilot at 160x48,
and writes the recording to OUT.jsonl (default tests/fixtures/recorded/threads_at_bp.jsonl) and
prints one line per step: what the line listed, each focus T moved to, the stops until the exit.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.bp_threads import BreakpointThreads, range_text

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "scripts" / "own_programs" / "three_blocks.cu"
CONDITION = "threadIdx.x == 5 && blockIdx.x < 3"


def marked(marker: str) -> int:
    return next(i for i, line in enumerate(SOURCE.read_text().splitlines(), 1) if marker in line)


async def record(out: Path, work: Path) -> int:
    t0 = time.monotonic()
    shutil.copy(SOURCE, work / SOURCE.name)
    subprocess.run(["nvcc", "-g", "-G", "-o", str(work / "three_blocks"), str(work / SOURCE.name)], check=True)
    line = marked("/* BP */")
    config = LaunchConfig(debugger=("cuda-gdb",), target=(str(work / "three_blocks"),), record=str(out),
                          breakpoints=(f"{SOURCE.name}:{line} if {CONDITION}",), cwd=str(work),
                          source_dirs=(str(SOURCE.parent),))
    app = DebuggerApp(config)
    stops = 0
    async with app.run_test(size=(160, 48)) as pilot:
        def say(what: str) -> None:
            status = app.debugger.status
            print(f"{time.monotonic() - t0:7.2f}s  {what}: {status.phase} {status.detail} {status.focus}", flush=True)

        async def until(done, timeout: float = 120) -> bool:
            deadline = time.monotonic() + timeout
            while not done():
                if time.monotonic() > deadline:
                    return False
                await pilot.pause(0.2)
            return True

        def generation() -> int:
            return app.debugger.state.generation if app.debugger.state else 0

        ok = await until(lambda: app.debugger.status.phase in ("stopped", "ready"))
        if ok and app.debugger.status.phase == "ready":  # a -b left pending holds a native program: run anyway
            say("held")
            await pilot.press("r")
            ok = await until(lambda: app.debugger.status.phase == "stopped")
        say("first stop" if ok else "first stop TIMED OUT")
        if not ok:
            await app.action_quit()
            return 1
        stops = 1
        threads = app.query_one(BreakpointThreads)
        line_widget = threads.query_one("#bp-threads-line")
        await until(lambda: bool(threads.ranges) or "threads at breakpoint" in str(line_widget.render()), 60)
        print(f"          line: {line_widget.render()}", flush=True)
        for r in threads.ranges:
            print(f"          range: kernel {r.kernel} {range_text(r)} at {r.file}:{r.line}", flush=True)
        for _ in range(min(len(threads.targets), 6)):
            before = generation()
            await pilot.press("T")
            moved = await until(lambda: generation() > before, 60)
            say(f"T -> block {threads.index + 1}/{len(threads.targets)}" if moved else "T: no new state")
        while app.debugger.status.phase == "stopped" and stops < 10:
            before = generation()
            await pilot.press("c")
            await until(lambda: generation() > before and app.debugger.status.phase in ("stopped", "exited"), 120)
            if app.debugger.status.phase == "stopped":
                stops += 1
            say(f"after c ({stops} stop{'s' * (stops > 1)} so far)")
        await app.action_quit()
    print(f"recorded {out} ({stops} stops at breakpoint 1 with condition {CONDITION!r})", flush=True)
    return 0


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "tests" / "fixtures" / "recorded" / "threads_at_bp.jsonl"
    if out.exists():
        out.unlink()  # --record appends per session: a fresh recording
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cudatui-bp-") as work:
        return asyncio.run(record(out, Path(work)))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
