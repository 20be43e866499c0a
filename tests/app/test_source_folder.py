"""A replay whose kernel source is not where it was recorded: the source pane says so, names
``--source-dir`` and the key that chooses the folder (D), and D opens the file from the folder
typed (issue 31). The recording: an H200 session of a cpp_extension kernel (ext_oob) whose build
folder (``TORCH_EXTENSIONS_DIR``) is not on this machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from cudatui.gdbbridge import LaunchConfig
from cudatui.tui.apps.debugger_app import DebuggerApp
from cudatui.tui.panes.source import SourcePane
from tests.support.app import phase
from tests.support.paths import RECORDED, ROOT
from tests.support.screen import screen_text
from tests.support.wait import wait_for

OWN = RECORDED / "own"
KEPT = OWN / "ext_oob.source" / "cuda.cu"
"""The extension's source as the GPU box showed it (a copy kept beside the recording)."""


def keys(text: str) -> list[str]:
    """The keys that type ``text`` (a space is Textual's key "space")."""
    return ["space" if c == " " else c for c in text]


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_d_chooses_the_folder_of_a_missing_source(size: tuple[int, int], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path / "no_extensions"))
    folder = tmp_path / "my sources"
    folder.mkdir()
    (folder / "cuda.cu").write_bytes(KEPT.read_bytes())
    faulting = next(line for line in KEPT.read_text().splitlines() if "idx[i]" in line).strip()
    app = DebuggerApp(LaunchConfig.replay(OWN / "ui_ext_oob.jsonl",
                                          source_dirs=(str(ROOT / "scripts" / "own_programs"),)))
    async with app.run_test(size=size) as pilot:
        source = app.query_one(SourcePane)
        await wait_for(pilot, lambda: phase(app) == "stopped" and "D: choose the folder it is in" in screen_text(app),
                       why="the missing source's line and its key, on the screen")
        assert "--source-dir" in source.query_one("#source-missing").render().plain  # type: ignore[attr-defined]
        await pilot.press("D", *keys("/nowhere/at all"), "enter")
        await wait_for(pilot, lambda: "not a folder: /nowhere/at all" in screen_text(app), why=lambda: "the refusal:\n" + screen_text(app))
        assert source.shown is not None and source.shown.local is None
        await pilot.press("D", *keys(str(folder)), "enter")
        await wait_for(pilot, lambda: source.shown is not None and source.shown.local == folder / "cuda.cu",
                       why="the file opened from the folder typed")
        await wait_for(pilot, lambda: faulting in screen_text(app), why="the faulting line on the screen")
        assert app.debugger.config.source_dirs[0] == str(folder)
        await app.action_quit()
