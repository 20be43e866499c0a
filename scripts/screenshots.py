"""Make screenshots/*.svg (and *.png with rsvg-convert or cairosvg) from replays of the packaged recordings.

Usage: ``python scripts/screenshots.py [NAME ...] [--out screenshots]``

The PNGs need ``rsvg-convert`` (Debian/Ubuntu: ``apt-get install librsvg2-bin``) or ``cairosvg``;
without either only the SVGs are made. A PNG is drawn in DejaVu Sans Mono (the SVG asks for Fira
Code, whose ligatures would turn ``==`` and ``>>=`` into symbols) with the SVG's spaces kept
(``xml:space``: rsvg-convert drops the space a text run starts with, ``@register int`` read
``@registerint``).

Every shot drives the real app headless (Textual's Pilot) against a recording in
kernels/recordings/ (real H200 sessions) or a recorded report in tests/fixtures/, then saves
``NAME-160x48.svg`` / ``NAME-80x24.svg``. Shots: the kernel stop overview with the lesson guide,
the warps pane (divergent lanes), a zoomed pane (Locals, ``z``), the CUDA exception banner (oob, else the first lesson whose recording stops on
an exception), shared memory, the sanitizer pane on a recorded racecheck report, GPU stats from
recorded NVML samples, the lesson picker, and a post-mortem: the GPU coredump memcheck wrote for
tests/fixtures/c/findings/t.cu opened on its faulting thread (tests/fixtures/recorded/findings).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from collections.abc import Awaitable, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cudatui.gdbbridge.nvml.sampler import ReplaySource, Sampler  # noqa: E402
from cudatui.gdbbridge.sanitizer.report import read_report  # noqa: E402
from cudatui.kernels.lessons import LESSONS  # noqa: E402
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, plan_demo  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
SIZES = ((160, 48), (80, 24))
Shot = Callable[[Path, tuple[int, int]], Awaitable[None]]


async def wait_until(pilot: Any, done: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise RuntimeError("timed out waiting for the app")
        await pilot.pause(0.05)


async def replay(lesson: str, out: Path, size: tuple[int, int], until: Callable[[Any], bool] | None = None,
                 pane: str | None = None, guide: bool = True, prepare: Callable[[Any], None] | None = None,
                 shared: str | None = None) -> None:
    """Replay ``lesson`` to its first stop, then along its recorded path until ``until(app)``."""
    from cudatui.tui.apps.demo_app import DemoApp

    plan = plan_demo(lesson, "replay")
    assert plan.recording is not None
    app = DemoApp(plan)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.debugger.status.phase in ("stopped", "exited"))
        for step in plan.recording.steps:
            if until is None or until(app):
                break
            before = app.debugger.state.generation if app.debugger.state else 0
            if step.startswith("g "):
                await app.debugger.switch_focus(step[2:])
            else:
                await pilot.press(step)
            await wait_until(pilot, lambda: app.debugger.state is not None and app.debugger.state.generation > before
                             and app.debugger.status.phase in ("stopped", "exited"))
        if until is not None and not until(app):
            raise RuntimeError(f"the {lesson} recording never reaches the state of {out.name}")
        if not guide:
            await pilot.press("H")
        if pane is not None:
            app.show_pane(pane)
        if prepare is not None:
            prepare(app)
        if shared is not None:
            from cudatui.tui.tooling.path_driver import add_shared_array

            await add_shared_array(app, pilot, shared)
        await pilot.pause(1.5)
        app.save_screenshot(str(out))
        await pilot.press("q")


def exception_lesson() -> str:
    """oob when its recording stops on a CUDA exception, else the first lesson whose does."""
    names = ["oob", *(lesson.name for lesson in LESSONS if lesson.name != "oob")]
    for name in names:
        path = RECORDINGS_DIR / f"{name}.jsonl.gz"
        if path.is_file() and b"CUDA_EXCEPTION" in _plain(path):
            return name
    raise RuntimeError("no packaged recording stops on a CUDA exception")


def _plain(path: Path) -> bytes:
    import gzip

    return gzip.decompress(path.read_bytes())


def at_exception(app: Any) -> bool:
    return app.debugger.state is not None and app.debugger.state.stop.exception is not None


def in_branch(app: Any) -> bool:
    return app.debugger.state is not None and app.debugger.state.stop.breakpoint == 2


def after_focus_switch(app: Any) -> bool:
    return app.debugger.state is not None and app.debugger.state.generation >= 2


def show_report(app: Any) -> None:
    from cudatui.tui.panes.sanitizer import SanitizerPane

    report = read_report(str(FIXTURES / "sanitizer" / "lessons" / "race_racecheck_buggy.xml"), "racecheck")
    app.query_one(SanitizerPane).show_report(report)


async def shot_overview(out: Path, size: tuple[int, int]) -> None:
    await replay("race", out, size)


async def shot_warps(out: Path, size: tuple[int, int]) -> None:
    """divergence inside its even branch: the odd lanes of each warp are divergent."""
    await replay("divergence", out, size, until=in_branch, pane="warps", guide=False)


async def shot_exception(out: Path, size: tuple[int, int]) -> None:
    await replay(exception_lesson(), out, size, until=at_exception, guide=size[0] >= 160)


async def shot_zoom(out: Path, size: tuple[int, int]) -> None:
    """race's first stop with Locals zoomed to the whole screen (``z``; ``z`` or escape goes back)."""
    def zoom(app: Any) -> None:
        app.query_one("#locals-tree").focus()
        app.call_after_refresh(app.query_one("#main").action_zoom)  # once the focus moved

    await replay("race", out, size, guide=False, prepare=zoom)


async def shot_shared(out: Path, size: tuple[int, int]) -> None:
    """race after the recorded focus switch, with ``sdata[256]`` added as record_demos.py adds it."""
    await replay("race", out, size, until=after_focus_switch, pane="shared", guide=False, shared="sdata[256]")


async def shot_sanitizer(out: Path, size: tuple[int, int]) -> None:
    await replay("race", out, size, pane="sanitizer", guide=False, prepare=show_report)


async def shot_gpu(out: Path, size: tuple[int, int]) -> None:
    from cudatui.tui.apps.stats_app import StatsApp

    sampler = Sampler(ReplaySource(FIXTURES / "nvml" / "h200_samples.jsonl"), interval_s=0.05)
    app = StatsApp(sampler)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(3.0)
        app.save_screenshot(str(out))


async def shot_picker(out: Path, size: tuple[int, int]) -> None:
    from cudatui.tui.apps.picker_app import PickerApp

    app = PickerApp()
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.5)
        await pilot.press("down")
        await pilot.pause(0.5)
        app.save_screenshot(str(out))


async def shot_postmortem(out: Path, size: tuple[int, int]) -> None:
    """The recorded `target cudacore` session (tests/gpu/test_findings_gpu.py on an H200)."""
    import gzip
    import json
    import re

    from cudatui.tui.apps.debugger_app import DebuggerApp
    from cudatui.gdbbridge.debugger.config import LaunchConfig

    recording = FIXTURES / "recorded" / "findings" / "finding_native_core.jsonl.gz"
    with gzip.open(recording, "rt") as lines:
        core = next(m[1] for line in lines if (m := re.search(r'target cudacore (\S+)"$', json.loads(line).get("line", ""))))
    app = DebuggerApp(LaunchConfig.replay(recording, core=core,
                                          cwd=str(ROOT), source_dirs=(str(FIXTURES / "c" / "findings"),)))
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.debugger.status.phase == "stopped")
        app.show_pane("warps")
        await pilot.pause(1.5)
        app.save_screenshot(str(out))
        await pilot.press("q")


SHOTS: dict[str, Shot] = {
    "overview": shot_overview,
    "warps": shot_warps,
    "zoom": shot_zoom,
    "exception": shot_exception,
    "shared": shot_shared,
    "sanitizer": shot_sanitizer,
    "gpu": shot_gpu,
    "picker": shot_picker,
    "postmortem": shot_postmortem,
}


def to_png(svg: Path, converter: str) -> None:
    """Write ``svg`` as a PNG beside it through ``converter`` (rsvg-convert or cairosvg), see the module doc."""
    text = svg.read_text(encoding="utf-8").replace("<svg ", '<svg xml:space="preserve" ', 1)
    text = text.replace("font-family: Fira Code, monospace;", "font-family: DejaVu Sans Mono, monospace;")
    png = svg.with_suffix(".png")
    command = [converter, "-o", str(png)] if Path(converter).name == "rsvg-convert" else [converter, "-", "-o", str(png)]
    subprocess.run(command, input=text.encode("utf-8"), check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[[], *SHOTS], metavar="NAME", help=f"shots: {', '.join(SHOTS)}")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    converter = shutil.which("rsvg-convert") or shutil.which("cairosvg")
    failed = 0
    for name in args.names or list(SHOTS):
        for width, height in SIZES:
            svg = args.out / f"{name}-{width}x{height}.svg"
            try:
                asyncio.run(SHOTS[name](svg, (width, height)))
            except Exception as exc:  # one failed shot is reported, the others are still made
                print(f"{svg.name}: FAILED: {exc}", flush=True)
                failed += 1
                continue
            if converter:
                to_png(svg, converter)
            print(f"{svg.name}{' + .png' if converter else ''}", flush=True)
    if not converter:
        print("neither rsvg-convert nor cairosvg found: SVG only (apt-get install librsvg2-bin)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
