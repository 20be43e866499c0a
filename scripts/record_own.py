"""Record programs nobody wrote for cudatui THROUGH THE REAL UI on a GPU box (replayed in CI).

Usage (on the GPU box, from the repository root)::

    python scripts/record_own.py OUT_DIR [NAME ...]

Each program of scripts/own_programs runs under cuda-gdb in the debugger app (DebuggerApp,
live, ``--record``), driven headless with Textual's Pilot at 160x48: run to the first stop,
wait for the host (Python) stack of that stop, then (:data:`AFTER`)

- ``torch_index``: press ``L`` (re-run with CUDA_LAUNCH_BLOCKING=1) and wait for the second
  stop's host stack;
- ``ext_oob``, ``cupy_oob``: the Warps pane's ``C`` (the culprit lane) and wait for its answer;
  the source file the source pane shows is copied to ``OUT_DIR/<name>.source/`` (CuPy's cached
  ``<sha1>.cubin.cu``, which a replay elsewhere needs);
- ``triton_quiet_oob``: no stop is expected: wait for the exit and its note.

Then quit. One line per phase with its time; the recordings are ``OUT_DIR/<name>.jsonl``.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import time
from pathlib import Path

from cudatui.gdbbridge import LaunchConfig, StateChanged
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.source import SourcePane
from cudatui.tui.panes.warps import WarpsPane

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ROOT / "scripts" / "own_programs"
RERUN = {"torch_index": "L"}
"""Keys pressed after the first stop's host stack (then the next stop's host stack is awaited)."""
AFTER = {"ext_oob": "culprit", "cupy_oob": "culprit", "triton_quiet_oob": "exit"}
"""What else is done at the first stop (or, for "exit", instead of it)."""


async def record(name: str, out: Path) -> None:
    t0 = time.monotonic()
    record_to = out / f"{name}.jsonl"
    config = LaunchConfig(debugger=("cuda-gdb",), target=(str(PROGRAMS / f"{name}.py"),), record=str(record_to),
                          cwd=str(PROGRAMS), source_dirs=(str(PROGRAMS),))
    app = DebuggerApp(config)
    hosts: list[tuple[object, object, str | None]] = []
    stops: set[int] = set()

    def seen(event: object) -> None:  # each stop's first state carries its host stack
        if isinstance(event, StateChanged) and not event.state.stop.exited and id(event.state.stop) not in stops:
            stops.add(id(event.state.stop))
            hosts.append((event.state.generation, event.state.host, event.state.host_note))

    app.debugger.subscribe(seen)
    async with app.run_test(size=(160, 48)) as pilot:

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

        if AFTER.get(name) == "exit":
            ok = await until(lambda: app.debugger.status.phase == "exited", 200)
            say(f"exit {'seen' if ok else 'TIMED OUT'}")
            source = app.query_one(SourcePane)
            for part in ("missing", "note"):
                print(f"{name:<12}   source {part}: {source.query_one(f'#source-{part}').render()!s}", flush=True)
            await app.action_quit()
            return
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
        if AFTER.get(name) == "culprit" and hosts:
            await culprit(name, app, out, until, say)
        await app.action_quit()


async def culprit(name: str, app: DebuggerApp, out: Path, until, say) -> None:
    """The Warps pane's C at the first stop; the source shown is kept beside the recording."""
    shown = app.query_one(SourcePane).shown
    print(f"{name:<12}   source: {shown.debugger_path if shown else None} -> {shown.local if shown else None}",
          flush=True)
    if shown is not None and shown.local is not None:
        keep = out / f"{name}.source"
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copy(shown.local, keep / shown.local.name)
    warps = app.query_one(WarpsPane)
    line = warps.query_one("#culprit-line")
    before = app.debugger.state.focus if app.debugger.state else None
    warps.action_culprit()
    ok = await until(lambda: str(line.render()).startswith("culprit: ") and "evaluating" not in str(line.render()), 120)
    say(f"culprit {'found' if ok else 'TIMED OUT'} (focus before: {before.software if before else None})")
    print(f"{name:<12}   {line.render()!s}", flush=True)
    await until(lambda: warps.watch_values or warps.watch_error or not warps.watch_expression, 120)
    print(f"{name:<12}   warp watch {warps.watch_expression}: {warps.watch_values or warps.watch_error}", flush=True)


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
