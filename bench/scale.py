"""Scale: the focus navigator on a 4096 x 256 grid, and the shared-memory pane on 48 KB.

The CUDA tables are the recorded H200 lines of ``inspect.jsonl`` with their rows multiplied:
a kernel of gridDim (4096,1,1) x blockDim (256,1,1), one block row per block (the worst case:
nothing coalesces) and two thread ranges per block (a divergent branch). ``sdata`` is a
``@shared float [12288]`` (48 KB) array served in gdb's print format. Everything is fetched
through a Debugger from the replay stand-in (the ranges as the parts of the stop the navigator
shows, merged into the stop shown), in a running app at 160x48; a step ends when the
app has painted it and gone idle.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable

from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import Tree

from cudatui.gdbbridge.cuda.evaluation import SHARED_CHUNK, shared_slice_expression
from cudatui.gdbbridge.cuda.tables import parse_devices, parse_kernels
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.debugger import Debugger
from cudatui.gdbbridge.debugger.events import DebuggerEvent, PhaseChanged, StateChanged
from cudatui.gdbbridge.debugger.status import Phase
from cudatui.gdbbridge.session.mi import BIG_LINE, parse_line
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.models import StopEvent, StopState, Variable
from cudatui.tui.messages import PagesShown, RangesOpened
from cudatui.tui.panes.focus import FocusNavigator
from cudatui.tui.panes.shared_array import SharedArray, from_variable_type
from cudatui.tui.panes.shared_memory import SharedMemoryPane

from . import TRANSCRIPTS, Result, fmt, median, print_results, transcript_lines, write_transcript

BENCH = "scale"
SIZE = (160, 48)
SETTLE = 0.05
SHARED_FLOATS = 12288


def _recorded(table: str) -> str:
    return next(x for x in transcript_lines(TRANSCRIPTS / "inspect.jsonl") if f"^done,{table}=" in x).split("^", 1)[1]


def _with(row: str, **fields: str) -> str:
    for name, value in fields.items():
        row, n = re.subn(rf'(?<=[{{,]){name}="[^"]*"', f'{name}="{value}"', row)
        if n != 1:
            raise ValueError(f"field {name} not in the recorded row")
    return row


def _table(table: str, rows: list[str]) -> str:
    """The recorded table line with its body replaced by ``rows`` (and nr_rows to match)."""
    line = _recorded(table)
    head, body = line.split("body=[", 1)
    return re.sub(r'nr_rows="\d+"', f'nr_rows="{len(rows)}"', head, count=1) + "body=[" + ",".join(rows) + "]}"


def tables(blocks: int, threads_per_block: int = 256) -> dict[str, str]:
    """Synthesized MI result lines (without token) for the devices/kernels/blocks/threads commands."""
    kernel_row = re.search(r"InfoCudaKernelsRow=\{.*\}(?=\]\})", _recorded("InfoCudaKernelsTable")).group(0)  # type: ignore[union-attr]
    block_row = re.search(r"CoalescedInfoCudaBlocksRow=\{[^{}]*\}", _recorded("CoalescedInfoCudaBlocksTable")).group(0)  # type: ignore[union-attr]
    thread_row = re.search(r"CoalescedInfoCudaThreadsRow=\{[^{}]*\}", _recorded("CoalescedInfoCudaThreadsTable")).group(0)  # type: ignore[union-attr]
    half = threads_per_block // 2
    block_rows, thread_rows = [], []
    for b in range(blocks):
        where = f"({b},0,0)"
        block_rows.append(_with(block_row, current="*" if b == 0 else " ", to=where, count="1", state="running")
                          .replace('from="(0,0,0)"', f'from="{where}"'))
        for k, (first, last, line) in enumerate(((0, half - 1, "9"), (half, threads_per_block - 1, "11"))):
            thread_rows.append(_with(thread_row, current="*" if b == 0 and k == 0 else " ", from_blockIdx=where,
                                     from_threadIdx=f"({first},0,0)", to_blockIdx=where, to_threadIdx=f"({last},0,0)",
                                     count=str(last - first + 1), line=line))
    kernel = _with(kernel_row, gridDim=f"({blocks},1,1)", blockDim=f"({threads_per_block},1,1)")
    return {
        "-cuda-info-devices": _recorded("InfoCudaDevicesTable"),
        "-cuda-info-kernels": _table("InfoCudaKernelsTable", [kernel]),
        "-cuda-info-blocks": _table("CoalescedInfoCudaBlocksTable", block_rows),
        "-cuda-info-threads": _table("CoalescedInfoCudaThreadsTable", thread_rows),
    }


def shared_answers(count: int) -> dict[str, str]:
    """``-data-evaluate-expression`` answers for every page of ``sdata`` and its address."""
    answers = {"&sdata[0]": 'value="(@shared float *) 0x0"'}
    for start in range(0, count, SHARED_CHUNK):
        n = min(SHARED_CHUNK, count - start)
        values = ", ".join(f"{(start + i) * 0.25:g}" for i in range(n))
        answers[shared_slice_expression("sdata", start, n)] = f'value="{{{values}}}"'
    return answers


_FOCUS_RECORD = ('CudaFocus={device="0",sm="0",warp="0",lane="0",kernel="0",grid="2",'
                 'blockIdx="(0,0,0)",threadIdx="(0,0,0)"}')
"""The stop the session is at (the focus of :func:`state`): the panes query only a stopped target."""


def write_session(path: Path, lines: dict[str, str], shared: dict[str, str]) -> Path:
    entries: list[tuple[str, str]] = [
        ("in", "0-exec-run"), ("out", "0^running"), ("out", '*running,thread-id="all"'), ("out", "(gdb) "),
        ("out", '*stopped,reason="breakpoint-hit",disp="keep",bkptno="1",' + _FOCUS_RECORD + ',thread-id="1"'),
    ]
    token = 0
    for command, result in lines.items():
        token += 1
        entries += [("in", f"{token}{command}"), ("out", f"{token}^{result}"), ("out", "(gdb) ")]
    for expression, value in shared.items():
        token += 1
        entries += [("in", f"{token}-data-evaluate-expression {expression}"), ("out", f"{token}^done,{value}"),
                    ("out", "(gdb) ")]
    return write_transcript(path, entries)


def state(lines: dict[str, str], shared_count: int) -> StopState:
    """The stop the panes show: focus on block 0 thread 0, ``sdata`` in scope."""
    payload = {k: parse_line(f"0^{v}").payload for k, v in lines.items()}
    focus = CudaFocus(device=0, sm=0, warp=0, lane=0, kernel=0, grid=2, block=(0, 0, 0), thread=(0, 0, 0))
    return StopState(
        generation=1, stop=StopEvent("breakpoint-hit", focus=focus), focus=focus,
        devices=parse_devices(payload["-cuda-info-devices"]), kernels=parse_kernels(payload["-cuda-info-kernels"]),
        variables=(Variable("sdata", "", f"@shared float [{shared_count}]"),),
    )


class Host(App[None]):
    """The navigator and the shared-memory pane side by side; records when the screen is painted.
    The navigator shows the bench's stop; the shared-memory pane, given ``sdata`` as a user adds
    it, the Debugger's states (the pages it shows read with them, as in the app)."""

    def __init__(self, debugger: Debugger, stop: StopState, sdata: SharedArray) -> None:
        super().__init__()
        self.debugger = debugger
        self.stop = stop
        self.navigator = FocusNavigator()
        self.shared = SharedMemoryPane()
        self.shared.added = [sdata]
        debugger.subscribe(lambda e: self.shared.show_state(e.state) if isinstance(e, StateChanged) else None)
        self.painted_at = 0.0
        self.first_paint = 0.0
        debugger.subscribe(self._published)

    def on_focus_navigator_ranges_opened(self, message: RangesOpened) -> None:
        """The navigator opened a kernel or block range: the Debugger reads their ranges (as the app asks)."""
        self.debugger.show_parts(registers=True, threads=True, blocks=message.blocks)

    def _published(self, event: DebuggerEvent) -> None:
        """The stop shown again with its ranges: the navigator gets them in the stop it shows."""
        if isinstance(event, StateChanged):
            got = event.state
            self.navigator.show_state(replace(self.stop, generation=got.generation, blocks=got.blocks, threads=got.threads,
                                              threads_error=got.threads_error, unasked=got.unasked))

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield self.navigator
            yield self.shared

    def on_shared_memory_pane_pages_shown(self, message: PagesShown) -> None:
        self.debugger.show_shared(message.windows)

    def _display(self, screen, renderable) -> None:  # type: ignore[no-untyped-def]
        if renderable is not None and not self._batch_count:
            self.painted_at = time.perf_counter()
            self.first_paint = self.first_paint or self.painted_at
        super()._display(screen, renderable)


async def timed(app: Host, pilot, start: Callable[[], object], done: Callable[[], bool]) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Milliseconds from ``start()`` to the first screen update, and until ``done()`` holds and the
    screen is painted and idle (scrolling animates, so the two differ)."""
    started = time.perf_counter()
    app.first_paint = 0.0
    result = start()
    if asyncio.iscoroutine(result):
        await result
    deadline = started + 120
    while not done():
        if time.perf_counter() > deadline:
            raise RuntimeError("the pane did not finish within 120 s")
        await asyncio.sleep(0.001)
    while True:
        await pilot.pause()
        mark = app.painted_at
        await asyncio.sleep(SETTLE)
        if app.painted_at == mark and not app.screen._dirty_widgets:
            first = app.first_paint or mark
            return (max(first, started) - started) * 1000, (max(mark, started) - started) * 1000


def _loaded(node) -> bool:  # type: ignore[no-untyped-def]
    return bool(node.children) and not any("loading" in str(c.label) for c in node.children)


async def _run(transcript: Path, stop: StopState, pages: int) -> dict[str, list[tuple[float, float]]]:
    debugger = Debugger(LaunchConfig.replay(transcript))
    stopped = asyncio.get_running_loop().create_future()
    debugger.subscribe(lambda e: isinstance(e, PhaseChanged) and e.status.phase is Phase.STOPPED
                       and not stopped.done() and stopped.set_result(e))
    await debugger.start()
    await asyncio.wait_for(stopped, 30)
    sdata = from_variable_type("sdata", stop.variables[0].type)
    assert sdata is not None and debugger.state is not None
    app = Host(debugger, stop, sdata)
    out: dict[str, list[tuple[float, float]]] = {}
    try:
        async with app.run_test(size=SIZE) as pilot:
            nav, shared, shown = app.navigator, app.shared, debugger.state
            tree: Tree = nav.query_one(Tree)
            out["show"] = [await timed(app, pilot, lambda: (nav.show_state(stop), shared.show_state(shown)),
                                       lambda: bool(shared.values()))]
            kernel = next(n for n in tree.root.children[0].children)
            out["blocks"] = [await timed(app, pilot, kernel.expand, lambda: _loaded(kernel))]
            first = kernel.children[0]
            out["threads"] = [await timed(app, pilot, first.expand, lambda: _loaded(first))]
            tree.focus()
            out["scroll"] = [await timed(app, pilot, lambda: pilot.press("pagedown"), lambda: True) for _ in range(pages)]
            shared.query_one("DataTable").focus()
            page = [shared.page]

            def next_page() -> object:
                page[0] += 1
                return pilot.press("right_square_bracket")

            out["page"] = [await timed(app, pilot, next_page, lambda: shared.page == page[0] and bool(shared.values()))
                           for _ in range(pages)]
    finally:
        await debugger.close()
    return out


def measure(quick: bool = False) -> list[Result]:
    """Navigator expand/scroll and shared-memory page times (``quick``: 64 blocks, 2 pages)."""
    blocks, pages = (64, 2) if quick else (4096, 20)
    lines = tables(blocks)
    with tempfile.TemporaryDirectory(prefix="cudatui-bench-") as tmp:
        transcript = write_session(Path(tmp) / "scale.jsonl", lines, shared_answers(SHARED_FLOATS))
        t = asyncio.run(_run(transcript, state(lines, SHARED_FLOATS), pages))
    sizes = {k: len(v) for k, v in lines.items()}
    parse_ms = {k: _parse_ms(f"1^{lines[k]}") for k in ("-cuda-info-blocks", "-cuda-info-threads")}
    grid = f"grid ({blocks},1,1) x (256,1,1)"
    where = {k: "in a thread" if n > BIG_LINE else "on the loop" for k, n in sizes.items()}

    def row(name: str, key: str, detail: str) -> Result:
        first = median([f for f, _ in t[key]])
        return Result(BENCH, name, median([d for _, d in t[key]]), " ms", f"first paint {fmt(first)} ms; {detail}")

    return [
        row("navigator: expand kernel -> block ranges shown", "blocks",
            f"{grid}; {blocks} rows in a {sizes['-cuda-info-blocks']:,} byte MI line, pygdbmi parse "
            f"{fmt(parse_ms['-cuda-info-blocks'])} ms ({where['-cuda-info-blocks']})"),
        row("navigator: expand block range -> thread ranges shown", "threads",
            f"{2 * blocks} rows in a {sizes['-cuda-info-threads']:,} byte MI line, pygdbmi parse "
            f"{fmt(parse_ms['-cuda-info-threads'])} ms ({where['-cuda-info-threads']})"),
        row("navigator: page down, median until idle", "scroll",
            f"{len(t['scroll'])} pages; the tree scrolls animated"),
        row("shared memory: first page shown", "show",
            f"{SHARED_FLOATS * 4 // 1024} KB float array; one -data-evaluate-expression of "
            f"{SHARED_CHUNK} values per page plus the address"),
        row("shared memory: next page, median until shown", "page", f"{len(t['page'])} pages"),
    ]


def _parse_ms(line: str) -> float:
    started = time.perf_counter()
    parse_line(line)
    return (time.perf_counter() - started) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 64-block grid and 2 pages (a smoke run)")
    args = parser.parse_args(argv)
    print_results(measure(args.quick))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
