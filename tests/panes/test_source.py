"""The source pane: which file it shows for a stop (the search directories, a recording's paths)."""

from __future__ import annotations

from cudatui.tui.app import DebuggerApp
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.tui.panes.source import SourcePane, resolve_source
from tests.support.app import stopped_at
from tests.support.paths import TOURS, TRANSCRIPTS
from tests.support.replay import replay_config
from tests.support.wait import wait_for


def test_a_recorded_path_prefers_the_search_directories_a_live_path_itself(tmp_path) -> None:
    here, elsewhere = tmp_path / "checkout", tmp_path / "recorded-on"
    here.mkdir()
    elsewhere.mkdir()
    (here / "k.cu").write_text("// this checkout\n")
    (elsewhere / "k.cu").write_text("// the recording machine's copy\n")
    recorded_path = str(elsewhere / "k.cu")
    assert resolve_source(recorded_path, (str(here),), recorded=True) == here / "k.cu"
    assert resolve_source(recorded_path, (str(here),)) == elsewhere / "k.cu"
    assert resolve_source(str(tmp_path / "gone" / "k.cu"), (str(here),)) == here / "k.cu"
    assert resolve_source(str(tmp_path / "gone" / "k.cu"), (str(tmp_path),), recorded=True) is None
    assert replay_config(TOURS / "tile.jsonl").replayed and not LaunchConfig(("gdb",), ("a.out",)).replayed


async def test_recorded_path_missing_maps_to_same_name_or_says_not_available(tmp_path) -> None:
    found = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(TRANSCRIPTS),)))
    async with found.run_test(size=(80, 24)) as pilot:
        await stopped_at(pilot, found, 9)
        source = found.query_one(SourcePane)
        assert source.shown is not None and source.shown.local == TRANSCRIPTS / "bugs.cu"
        assert "int tid = threadIdx.x" in source.view.lines[8].plain
    missing = DebuggerApp(replay_config(TRANSCRIPTS / "inspect.jsonl", "reduce_racy", source_dirs=(str(tmp_path),)))
    async with missing.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: missing.query_one(SourcePane).shown is not None)
        source = missing.query_one(SourcePane)
        assert source.shown is not None and source.shown.local is None
        message = str(source.query_one("#source-missing").render())
        assert message.startswith("source not available: /home/user/lesson/bugs.cu")
        assert not source.view.display
