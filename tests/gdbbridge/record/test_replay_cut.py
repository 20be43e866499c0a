"""The replay stand-in on recordings cut off by a crash, and how a recording started its target.

Cut copies of a real H200 lesson recording are made in the test's tmp directory (never the fixture)."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

from cudatui.gdbbridge.debugger.recorded_path import recorded_start
from cudatui.gdbbridge.record.replay import REPLAY_CUT, Replayer
from cudatui.gdbbridge.record.transcript import load
from cudatui.gdbbridge.session.mi import parse_line
from tests.support.paths import RECORDED, ROOT

RACE = ROOT / "kernels" / "recordings" / "race.jsonl.gz"


def cut_after(tmp_path: Path, text: str) -> Path:
    """race.jsonl.gz with the line after the first one holding ``text`` cut in its middle."""
    lines = gzip.decompress(RACE.read_bytes()).decode().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if text in line) + 1
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(lines[:index]) + lines[index][: len(lines[index]) // 2])
    return path


def said(replayer: Replayer, line: str) -> list[str]:
    out = replayer.out
    assert isinstance(out, io.StringIO)
    start = len(out.getvalue())
    replayer.handle(line)
    return out.getvalue()[start:].splitlines()


def test_a_command_whose_answer_the_cut_lost_is_refused_and_the_cut_said_once(tmp_path: Path) -> None:
    transcript = load(str(cut_after(tmp_path, '"line": "12-cuda-info-sms"')))
    assert transcript.truncated
    lost = [x for x in transcript.exchanges if not x.result]  # recorded, their answers cut away (pipelined)
    assert lost and lost[-1].command == "-cuda-info-sms"
    replayer = Replayer(transcript, io.StringIO())
    replayer.start()
    for x in transcript.exchanges[: lost[0].index]:
        assert not any(REPLAY_CUT in line for line in said(replayer, f"{x.token}{x.command}"))
    lines = said(replayer, f"99{lost[0].command}")
    assert parse_line(lines[0]).payload["msg"] == (f"not in this recording: {lost[0].command} (the recording was cut "
                                                   f"off at line {transcript.cut_at}: it replays up to there)")
    assert lines[1] == f'={REPLAY_CUT},line="{transcript.cut_at}"'
    for x in lost[1:]:  # said once
        lines = said(replayer, f"100{x.command}")
        assert lines[0].startswith("100^error") and not any(REPLAY_CUT in line for line in lines)


def test_a_move_past_the_last_recorded_one_says_the_cut(tmp_path: Path) -> None:
    transcript = load(str(cut_after(tmp_path, '"line": "5-exec-run"')))
    replayer = Replayer(transcript, io.StringIO())
    replayer.start()
    for x in transcript.exchanges:
        if not x.command.startswith("-exec-run"):
            said(replayer, f"{x.token}{x.command}")
    lines = said(replayer, "7-exec-run")
    assert lines[0].startswith("7^error") and lines[1] == f'={REPLAY_CUT},line="{transcript.cut_at}"'


def test_how_recordings_start() -> None:
    assert recorded_start(load(str(RACE))) == ("run", "")
    how, path = recorded_start(load(str(RECORDED / "findings" / "finding_native_core.jsonl.gz")))
    assert how == "core" and path.endswith("sanitizer.nvcudmp")
    how, command = recorded_start(load(str(RECORDED / "own" / "attach.jsonl")))
    assert how == "" and command.startswith("-target-attach ")
