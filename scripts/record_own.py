"""Record programs nobody wrote for cudatui THROUGH THE REAL UI on a GPU box (replayed in CI).

Usage (on the GPU box, from the repository root)::

    python scripts/record_own.py OUT_DIR [NAME ...]

Each program of scripts/own_programs runs under cuda-gdb in the debugger app (DebuggerApp,
live, ``--record``), driven headless with Textual's Pilot at 160x48: run to the first stop,
wait for the host (Python) stack of that stop, and for ``torch_index`` press ``L`` (re-run with
CUDA_LAUNCH_BLOCKING=1) and wait for the second stop's host stack; then quit. One line per phase
with its time; the recordings are ``OUT_DIR/<name>.jsonl``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.app import DebuggerApp
from cudatui.tui.panes.stack import StackPane

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "scripts" / "own_programs"
RERUN = {"torch_index": "L"}
"""Keys pressed after the first stop's host stack (then the next stop's host stack is awaited)."""


async def record(name: str, out: Path) -> None:
    t0 = time.monotonic()
    record_to = out / f"{name}.jsonl"
    config = LaunchConfig(debugger=("cuda-gdb",), target=(str(PROGRAMS / f"{name}.py"),), record=str(record_to),
                          cwd=str(PROGRAMS), source_dirs=(str(PROGRAMS),))
    app = DebuggerApp(config)
    hosts: list[object] = []
    async with app.run_test(size=(160, 48)) as pilot:
        stack = app.query_one(StackPane)
        original = stack.show_host

        def seen(generation: int, host: object, note: str | None) -> None:
            hosts.append((generation, host, note))
            original(generation, host, note)  # type: ignore[arg-type]

        stack.show_host = seen  # type: ignore[method-assign]

        async def until(done, timeout: float) -> bool:
            deadline = time.monotonic() + timeout
            while not done():
                if time.monotonic() > deadline:
                    return False
                await pilot.pause(0.2)
            return True

        def say(what: str) -> None:
            status = app.debugger.status
            print(f"{name:<12} {time.monotonic() - t0:7.2f}s  {what}: {status.phase} {status.detail} "
                  f"{status.focus}", flush=True)

        for round_, key in enumerate(["", RERUN.get(name, "")]):
            if round_ and not key:
                break
            if key:
                await pilot.press(key)
            ok = await until(lambda: len(hosts) > round_, 200)
            say(f"stop {round_ + 1} host stack {'shown' if ok else 'TIMED OUT'}")
            if ok:
                _, host, note = hosts[round_]
                frame = host.user_frame  # type: ignore[attr-defined]
                print(f"{name:<12}   python line: {frame.file if frame else None}:{frame.line if frame else None} "
                      f"note: {note!r}", flush=True)
        await app.action_quit()


async def main(argv: list[str]) -> int:
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    names = argv[2:] or ["torch_index", "triton_fault"]
    results = await asyncio.gather(*(record(n, out) for n in names), return_exceptions=True)
    for name, result in zip(names, results):
        if isinstance(result, BaseException):
            print(f"{name}: FAILED {type(result).__name__}: {result}", flush=True)
    return 1 if any(isinstance(r, BaseException) for r in results) else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv)))
