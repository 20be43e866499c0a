"""Everything the Debugger hands out is clean text, with a real GNU gdb.

The program of tests/support/names.py (a source file, a dlopen'ed library and a function named
with OSC 2, OSC 52 and CSI sequences): every event and every query answer is free of escape
and control characters while the session itself keeps gdb's names (what it matches and sends
back to gdb). The program's output is filtered as a stream: an escape cut in two by a stop is
removed whole (tests/fixtures/c/hostile/split_escape.c). A source file is read clean by the panes
that read it (the shared-memory pane over the real reduce_racy replay), and ``cudatui explain``
prints what it quotes clean. The terminal test is tests/reliability/test_terminal_names.py.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest

from cudatui.gdbbridge import Debugger, LaunchConfig, Phase, ProgramText
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.output import OutputPane
from cudatui.tui.panes.shared_memory import SharedMemoryPane
from tests.support.app import phase
from tests.support.cli import run_main
from tests.support.names import FUNCTION, KERNEL, LIBRARY, SHOWN, SOURCE, build, clipboard, title
from tests.support.panes import PaneApp, first_stop
from tests.support.paths import C_SOURCES, FIXTURES, TRANSCRIPTS
from tests.support.programs import compile_c, needs_gdb
from tests.support.wait import until, wait_for

UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
"""What no text handed to the UI may hold: control characters but the line break (ESC among them)."""


def strings(value: Any) -> Iterator[str]:
    """Every str inside ``value`` (dataclass fields, tuples, lists, dicts), however deep."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings(getattr(value, field.name))


@needs_gdb
async def test_every_event_and_answer_of_the_debugger_is_clean(tmp_path: Path) -> None:
    built = build(tmp_path)
    debugger = Debugger(LaunchConfig(debugger=("gdb",), target=(str(built.program),), breakpoints=("callback if 0",),
                                     cwd=str(tmp_path)))
    events: list[object] = []
    debugger.subscribe(events.append)
    try:
        await debugger.start()
        await until(lambda: any(isinstance(e, ProgramText) and "in callback" in e.text for e in events))
        await debugger.interrupt()
        await until(lambda: debugger.phase is Phase.STOPPED)
        answers = [await debugger.evaluate("callback")]
        await debugger.select_frame(2)
        assert debugger.breakpoints is not None
        (raw,) = debugger.breakpoints.table.values()
        assert raw.file is not None and raw.file.endswith(SOURCE), "the session keeps gdb's own name"
    finally:
        await debugger.close()
    texts = list(strings(events)) + list(strings(answers)) + list(strings(debugger.status))
    dirty = [text for text in texts if UNSAFE.search(text)]
    assert not dirty, dirty[:5]
    shown = "\n".join(texts)
    assert f"loaded {SHOWN[LIBRARY]}" in shown  # the status while running: the library's name
    assert debugger.state is not None and [f.func for f in debugger.state.frames][1:3] == ["callback", SHOWN[FUNCTION]]
    assert debugger.state.frames[1].file == f"{tmp_path}/{SHOWN[SOURCE]}" and debugger.state.selected_frame == 2
    assert debugger.state.breakpoints[0].file == f"{tmp_path}/{SHOWN[SOURCE]}"


@needs_gdb
async def test_an_escape_cut_in_two_by_a_stop_is_removed_whole(tmp_path: Path) -> None:
    program = compile_c(C_SOURCES / "hostile" / "split_escape.c", tmp_path / "split_escape")
    app = DebuggerApp(LaunchConfig(debugger=("gdb",), target=(str(program),), breakpoints=("split",),
                                   cwd=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: phase(app) == "stopped")
        output = app.query_one(OutputPane)
        await wait_for(pilot, lambda: output.text == "before:")  # "\x1b[3" was read, and is held back
        await pilot.press("c")
        await wait_for(pilot, lambda: phase(app) == "exited")
        await wait_for(pilot, lambda: output.text.endswith("Enter a value: "))
        assert output.text == "before:red bell^G\nEnter a value: "
        await pilot.press("q")


async def test_a_source_file_is_read_clean(tmp_path: Path) -> None:
    """reduce_racy's ``extern __shared__ float sdata[];`` (bugs.cu) with escapes inside: read raw,
    the declaration was not found (or its type carried them into the pane's title)."""
    source = (TRANSCRIPTS / "bugs.cu").read_text()
    hostile = f"extern __shared__ float{clipboard('SHARED-CLIP')} {title('SHARED-TITLE')}sdata[];"
    (tmp_path / "bugs.cu").write_text(source.replace("extern __shared__ float sdata[];", hostile))
    pane = SharedMemoryPane(page_size=32, search_dirs=lambda: (str(tmp_path),))
    app = PaneApp(pane, "inspect.jsonl", first_stop)
    async with app.run_test(size=(120, 24)) as pilot:
        await wait_for(pilot, lambda: app.ready)
        await wait_for(pilot, lambda: bool(pane.values()))
        await wait_for(pilot, lambda: "reading" not in str(pane.query_one("#shared-title").render()))
        assert [(a.name, a.element, a.dims) for a in pane.arrays()] == [("sdata", "float", (256,))]
        assert str(pane.query_one("#shared-title").render()).startswith("float sdata[256] address ?")


def test_explain_prints_what_it_quotes_clean(capsys: pytest.CaptureFixture[str]) -> None:
    report = (FIXTURES / "sanitizer" / "memcheck.txt").read_text().replace("at k(int *)", f"at {KERNEL}(int *)")
    rc, out, _ = run_main(capsys, "explain", report)
    assert rc == 0 and f"kernel         {SHOWN[KERNEL]}" in out
    assert not UNSAFE.search(out.replace("\n", ""))
