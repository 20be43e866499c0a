"""Recordings are user data: appended per session, never replaced without --force, no symlink
followed, private, line ends escaped, write errors reported once; the reader refuses devices,
FIFOs, oversized text and lines with one line."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cudatui.gdbbridge.record import transcript
from cudatui.gdbbridge.session.recorder import Recorder, RecordingError, encode, prepare
from cudatui.gdbbridge.record.transcript import TranscriptError, load
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.cli import cudatui, one_line
from tests.support.paths import TRANSCRIPTS

INSPECT = TRANSCRIPTS / "inspect.jsonl"
REPLAY = [sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(INSPECT)]


async def test_each_session_appends_its_own_header(tmp_path: Path) -> None:
    record = tmp_path / "two.jsonl"
    prepare(record)
    for _ in range(2):
        session = GdbSession(REPLAY, record=record, inferior_tty=False)
        await asyncio.wait_for(session.start(), 20)
        await session.command("-exec-run")
        await session.close()
    headers = [json.loads(line) for line in record.read_text().splitlines() if '"dir": "meta"' in line]
    assert len(headers) == 2 and all(h["argv"][:3] == REPLAY[:3] for h in headers)
    first, second = load(str(record), 1), load(str(record), 2)
    assert (first.sessions, second.session) == (2, 2)
    assert [x.command for x in first.exchanges] == [x.command for x in second.exchanges]
    with pytest.raises(TranscriptError, match="holds 2 session"):
        load(str(record), 3)


def test_an_existing_file_is_never_replaced_without_force(tmp_path: Path) -> None:
    record = tmp_path / "keep.jsonl"
    record.write_text("precious\n")
    record.chmod(0o644)
    with pytest.raises(RecordingError, match="exists: a recording is never replaced"):
        prepare(record)
    assert record.read_text() == "precious\n"
    prepare(record, force=True)
    assert record.read_text() == "" and stat.S_IMODE(record.stat().st_mode) == 0o600


def test_the_command_line_refuses_an_existing_record_file(tmp_path: Path) -> None:
    record = tmp_path / "keep.jsonl"
    record.write_text("precious\n")
    message = one_line(cudatui("--debugger", sys.executable, "--record", str(record), sys.executable, cwd=tmp_path))
    assert "keep.jsonl exists" in message and "--force" in message
    assert record.read_text() == "precious\n"


def test_a_symlink_is_not_followed_even_with_force(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("not yours\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    for force in (False, True):
        with pytest.raises(RecordingError, match="symbolic link"):
            prepare(link, force=force)
    errors: list[str] = []
    recorder = Recorder(link, ["gdb"], errors.append)
    recorder.write("out", "x")
    assert target.read_text() == "not yours\n" and len(errors) == 1 and "symbolic link" in errors[0]


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_fifos_and_devices_are_refused(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "fifo" if kind == "fifo" else Path("/dev/full")
    if kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(RecordingError, match="FIFO without a reader|not a regular file"):
        prepare(path, force=True)


def test_line_separators_round_trip(tmp_path: Path) -> None:
    record = tmp_path / "seps.jsonl"
    text = "a\u2028b\u2029c\u0085d\x0be\x1cf\r\n"
    recorder = Recorder(record, ["gdb"])
    recorder.write("in", "1-exec-run")
    recorder.write("program", text)
    recorder.close()
    raw = record.read_bytes()
    assert raw.count(b"\n") == 3 and "\u2028".encode() not in raw and "\u0085".encode() not in raw
    (exchange,) = load(str(record)).exchanges
    assert [e.line for e in exchange.output] == [text]
    assert "\u2028" not in encode({"line": "\u2028"})


def test_a_write_error_stops_recording_once_and_the_session_goes_on(tmp_path: Path) -> None:
    record = tmp_path / "full.jsonl"
    code = textwrap.dedent(f"""
        import asyncio, resource, signal
        from cudatui.gdbbridge.session import events as ev
        from cudatui.gdbbridge.session.gdb import GdbSession
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

        async def main():
            session = GdbSession({REPLAY!r}, record={str(record)!r}, inferior_tty=False)
            stopped = []
            session.subscribe(lambda e: stopped.append(e.message) if isinstance(e, ev.RecordingStopped) else None)
            await session.start()
            await session.command("-exec-run")
            for _ in range(5):
                devices = await session.command("-cuda-info-devices")
            await session.close()
            print(len(stopped), devices["InfoCudaDevicesTable"]["body"][0]["name"], "|", stopped[0])

        asyncio.run(main())
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    head, message = done.stdout.strip().split(" | ", 1)
    assert head == "1 NVIDIA H200"
    assert message == f"recording to {record} stopped: File too large"
    assert record.stat().st_size <= 4096
    assert load(str(record)).exchanges, "the lines written before the limit stay readable"


def _cut_session(lines: list[str]) -> str:
    return "".join(lines) + lines[-1][: len(lines[-1]) // 2]


def test_a_session_cut_by_a_crash_then_appended_to_still_replays(tmp_path: Path) -> None:
    lines = INSPECT.read_text().splitlines(keepends=True)
    header = json.dumps({"t": 0, "dir": "meta", "format": "cudatui-transcript", "version": 1, "argv": ["gdb"]}) + "\n"
    path = tmp_path / "cut-then-more.jsonl"
    path.write_text(header + _cut_session(lines[:60]) + "\n" + header + "".join(lines))
    first = load(str(path), 1)
    assert first.truncated and first.cut_at == 62 and first.sessions == 2
    assert not load(str(path), 2).truncated


@pytest.mark.parametrize("kind", ["dev-zero", "fifo"])
def test_the_reader_refuses_devices_and_fifos(tmp_path: Path, kind: str) -> None:
    path = Path("/dev/zero") if kind == "dev-zero" else tmp_path / "fifo"
    if kind == "fifo":
        os.mkfifo(path)
    with pytest.raises(TranscriptError, match="not a regular file"):
        load(str(path))


def test_the_reader_bounds_text_and_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transcript, "MAX_TEXT", 1 << 20)
    monkeypatch.setattr(transcript, "MAX_LINE", 1 << 12)
    bomb = tmp_path / "newlines.jsonl.gz"
    with gzip.open(bomb, "wb") as out:
        out.write(b"\n" * (2 << 20))
    assert bomb.stat().st_size < 16 << 10
    with pytest.raises(TranscriptError, match="more than 1 MiB of text"):
        load(str(bomb))
    long = tmp_path / "long.jsonl"
    long.write_bytes(b"x" * (1 << 14))
    with pytest.raises(TranscriptError, match="a line longer than"):
        load(str(long))


def test_replay_of_a_device_is_one_line(tmp_path: Path) -> None:
    message = one_line(cudatui("replay", "/dev/zero", cwd=tmp_path))
    assert "not a regular file" in message
