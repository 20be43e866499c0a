"""Record ``cudatui triage`` on a GPU box: each program runs at full speed with the GPU coredump
armed (gdbbridge/jobs/triage.py), then its post-mortem opens THROUGH THE REAL UI (DebuggerApp,
``--record``, Pilot at 160x48) until the stop shows its focus and its Python stack. Replayed in CI.

Usage (on the GPU box, from the repository root)::

    python scripts/record_triage.py OUT_DIR [NAME ...]    # names of scripts/own_programs

Per program it prints: the plain run's time (``python3 PROG``, no debugger), the triage run's
time, the time from the start of triage to the post-mortem screen, the dump's size, the stop
(focus, exception, the culprit lane the post-mortem found) and the Python line; the recordings are ``OUT_DIR/triage_<name>.jsonl``.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from cudatui.gdbbridge import LaunchConfig
from cudatui.gdbbridge.jobs import triage
from cudatui.tui.apps.debugger_app import DebuggerApp

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "scripts" / "own_programs"


async def post_mortem(config: LaunchConfig, started: float) -> str:
    app = DebuggerApp(config)
    async with app.run_test(size=(160, 48)) as pilot:
        deadline = time.monotonic() + 120
        while not (app.debugger.state is not None and app.debugger.state.focus is not None and app.debugger.state.host is not None):
            if time.monotonic() > deadline:
                await app.action_quit()
                return f"TIMED OUT: {app.debugger.status.phase} {app.debugger.status.detail}"
            await pilot.pause(0.05)
        await pilot.pause()
        shown = time.perf_counter() - started
        state = app.debugger.state
        frame = state.host.user_frame if state.host else None
        exception = state.stop.exception.name if state.stop.exception else None
        await app.action_quit()
    return (f"screen at {shown:.2f} s; focus {state.focus.software if state.focus else None}; exception {exception}; "
            f"python line {frame.file if frame else None}:{frame.line if frame else None} "
            f"({frame.code if frame else ''}); note {state.host_note!r}; culprit "
            f"{(state.culprit.lane, state.culprit.reason) if state.culprit else None}")


async def record(name: str, out: Path) -> None:
    program = PROGRAMS / f"{name}.py"
    t0 = time.perf_counter()
    plain = subprocess.run([sys.executable, str(program)], cwd=PROGRAMS, capture_output=True, text=True)
    plain_s = time.perf_counter() - t0
    print(f"{name:<14} plain run {plain_s:.2f} s, exit {plain.returncode}: {plain.stdout.strip()[-80:]}", flush=True)
    directory = triage.private_directory(str(out / f"triage_{name}.dumps"))
    started = time.perf_counter()
    result = triage.run_armed([sys.executable, str(program)], directory, cwd=str(PROGRAMS), echo=lambda _: None)
    ran = time.perf_counter() - started
    size = result.dump.stat().st_size if result.dump else 0
    print(f"{name:<14} triage run {ran:.2f} s: {result.summary(name)}; dump {size / 1e6:.1f} MB "
          f"(full)", flush=True)
    print(f"{name:<14} output tail: {result.output.read_text()[-300:]!r}", flush=True)
    if result.dump is None:
        return
    config = LaunchConfig(debugger=("cuda-gdb",), target=(str(program),), cwd=str(PROGRAMS),
                          source_dirs=(str(PROGRAMS),), core=str(result.dump), program_output=str(result.output),
                          record=str(out / f"triage_{name}.jsonl"))
    said = await post_mortem(config, started)
    print(f"{name:<14} {said}; ratio to the plain run {(time.perf_counter() - started) / plain_s:.2f}x", flush=True)


async def main(argv: list[str]) -> int:
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for name in argv[2:] or ["torch_index", "cupy_oob", "ext_oob", "launch_heavy"]:
        try:
            await record(name, out)
        except Exception as exc:  # one program's failure is said; the others are still recorded
            print(f"{name}: FAILED {type(exc).__name__}: {exc}", flush=True)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv)))
