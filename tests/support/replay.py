"""The app and the session over recordings: the replay stand-in as the debugger."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cudatui.gdbbridge.debugger.config import LaunchConfig

from .paths import ROOT

TILE_BREAKS = ("tile.cu:51 if threadIdx.x == 0 && threadIdx.y == 0", "tile.cu:37")
"""The breakpoints the tile tour (tours/tile.jsonl) was recorded with."""


def replay_config(path, *breakpoints: str, source_dirs: tuple[str, ...] = ()) -> LaunchConfig:
    """The debugger app over the recording at ``path``, run from the repository root."""
    return LaunchConfig.replay(path, breakpoints=breakpoints, cwd=str(ROOT), source_dirs=source_dirs)


def sequential(path: Path, tmp_path: Path) -> Path:
    """The recording with each result line moved right after the command it answers.

    The tours were recorded with the refresh batch pipelined (ten commands written, then ten
    answers); the replay stand-in gives each recorded command the lines that follow it up to the
    next command, so pipelined answers must be put back in command order to be replayed when
    this front end's token numbers differ from the recording's.
    """
    entries = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    answers = {}
    for entry in entries:
        m = re.match(r"^(\d+)\^", entry.get("line", "")) if entry["dir"] == "out" else None
        if m:
            answers[m.group(1)] = entry
    ordered = []
    for entry in entries:
        if entry["dir"] == "out" and entry in answers.values():
            continue
        ordered.append(entry)
        m = re.match(r"^(\d+)-", entry.get("line", "")) if entry["dir"] == "in" else None
        if m and m.group(1) in answers:
            ordered.append(answers[m.group(1)])
    out = tmp_path / path.name
    out.write_text("".join(json.dumps(e) + "\n" for e in ordered))
    return out
