"""The replay stand-in debugger over the real cuda-gdb transcripts: matching, tokens, errors."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.mi import Flag, parse_line
from cudatui.gdbbridge.record.replay import Replayer
from cudatui.gdbbridge.record.transcript import TranscriptError, canonical, load
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.paths import ROOT, TRANSCRIPTS

RECORDINGS = ROOT / "kernels" / "recordings"

INSPECT = str(TRANSCRIPTS / "inspect.jsonl")


def ask(replayer: Replayer, line: str) -> list:
    """Send one command line; the parsed records the stand-in printed for it (prompts dropped)."""
    out = replayer.out
    start = out.tell()
    replayer.handle(line)
    out.seek(start)
    records = [parse_line(text) for text in out.read().splitlines()]
    return [r for r in records if r.kind != "prompt"]


def answer(replayer: Replayer, line: str):
    (result,) = [r for r in ask(replayer, line) if r.kind == "result"]
    return result


@pytest.fixture
def inspect_replay() -> Replayer:
    replayer = Replayer(load(INSPECT), io.StringIO())
    replayer.start()
    return replayer


def test_prologue_is_served_first(inspect_replay):
    printed = inspect_replay.out.getvalue().splitlines()
    assert printed[0] == '=thread-group-added,id="i1"' and printed[-1] == "(gdb) "
    assert any("Reading symbols from" in line for line in printed)


def test_tokens_rewritten(inspect_replay):
    assert answer(inspect_replay, "7-cuda-info-devices").payload["msg"].startswith("not in this recording")
    assert answer(inspect_replay, "1-exec-run").token == 1
    result = answer(inspect_replay, "7-cuda-info-devices")
    assert result.token == 7 and result.message == "done" and "InfoCudaDevicesTable" in result.payload
    assert answer(inspect_replay, "-cuda-info-sms").token is None
    assert answer(inspect_replay, "123456-cuda-info-kernels").token == 123456


def test_quoted_and_bare_arguments_match(inspect_replay):
    assert canonical('-break-insert -f "reduce_racy"') == canonical("-break-insert -f reduce_racy")
    assert answer(inspect_replay, '1-break-insert -f "reduce_racy"').payload["bkpt"]["pending"] == "reduce_racy"
    assert canonical(r'-data-evaluate-expression "a\"b\\c"') == ("-data-evaluate-expression", 'a"b\\c')


def test_state_changing_commands_only_match_forward(inspect_replay):
    records = ask(inspect_replay, "1-exec-run")
    assert [r.message for r in records if r.kind == "exec"][-1] == "stopped"
    lines = []
    for token in (2, 3, 4):
        records = ask(inspect_replay, f"{token}-exec-next")
        assert records[0].kind == "result" and records[0].token == token and records[0].message == "running"
        (stopped,) = [r for r in records if r.kind == "exec" and r.message == "stopped"]
        lines.append(stopped.payload["frame"]["line"])
    assert lines == ["10", "11", "12"]
    error = answer(inspect_replay, "5-exec-next")
    assert error.message == "error" and error.payload["msg"] == "not in this recording: -exec-next"


def test_queries_answer_from_this_stop_or_the_latest_earlier(inspect_replay):
    ask(inspect_replay, "1-exec-run")
    # Forward search stops at the next state-changing command (the focus switch) and there is
    # no earlier answer: not in this recording yet.
    assert answer(inspect_replay, "2-stack-list-variables --simple-values").message == "error"
    ask(inspect_replay, '3-cuda-focus-switch "block (3,0,0) thread (200,0,0)"')
    before = answer(inspect_replay, "4-stack-list-variables --simple-values").payload["variables"]
    assert [v["value"] for v in before if v["name"] == "tid"] == ["<optimized out>"]
    for token in (5, 6, 7):
        ask(inspect_replay, f"{token}-exec-next")
    after = answer(inspect_replay, "8-stack-list-variables --simple-values").payload["variables"]
    assert [v["value"] for v in after if v["name"] == "tid"] == ["200"]
    # A pane opened later still gets this session's devices (latest earlier answer).
    devices = answer(inspect_replay, "9-cuda-info-devices")
    assert devices.token == 9 and devices.payload["InfoCudaDevicesTable"]["body"][0]["name"] == "NVIDIA H200"


def test_unknown_and_non_mi_commands(inspect_replay):
    error = answer(inspect_replay, '12-data-evaluate-expression "no_such_thing"')
    assert error.token == 12 and error.payload["msg"] == 'not in this recording: -data-evaluate-expression "no_such_thing"'
    assert answer(inspect_replay, "hello there").payload["msg"] == "not an MI command: hello there"
    tty = answer(inspect_replay, '3-inferior-tty-set "/nonexistent/tty"')
    assert (tty.token, tty.message) == (3, "done")


def test_gdb_exit_ends_the_replay(inspect_replay):
    assert inspect_replay.handle("9-gdb-exit") is False
    assert inspect_replay.out.getvalue().splitlines()[-1] == "9^exit"


def test_truncated_recording_replays_up_to_the_cut(tmp_path):
    lines = Path(INSPECT).read_text().splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if '"108-cuda-info-kernels"' in line)
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(lines[:cut]) + lines[cut][: len(lines[cut]) // 2])
    transcript = load(str(path))
    assert transcript.truncated
    replayer = Replayer(transcript, io.StringIO())
    replayer.start()
    ask(replayer, "1-exec-run")
    assert answer(replayer, "2-cuda-info-lanes").message == "done"
    assert answer(replayer, "3-cuda-info-kernels").payload["msg"].startswith("not in this recording")


def test_garbage_in_the_middle_is_an_error(tmp_path):
    lines = Path(INSPECT).read_text().splitlines()
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines[:5] + ["{not json"] + lines[5:10]) + "\n")
    with pytest.raises(TranscriptError, match=r"bad.jsonl:6: not a cudatui transcript line"):
        load(str(path))


def run_replay(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cudatui.gdbbridge.record.replay", *args], input=stdin,
                          capture_output=True, text=True, timeout=30)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr
    return proc.stderr


def test_unknown_format_version_exits_2(tmp_path):
    path = tmp_path / "future.jsonl"
    header = {"t": 0, "dir": "meta", "format": "cudatui-transcript", "version": 99, "argv": ["cuda-gdb"]}
    path.write_text(json.dumps(header) + "\n" + Path(INSPECT).read_text())
    message = one_line_error(run_replay(str(path)))
    assert "version 99" in message and "version 1" in message


@pytest.mark.parametrize("kind", ["missing", "directory", "binary", "empty", "no-commands"])
def test_unreadable_recordings_exit_2(tmp_path, kind):
    path = tmp_path / "x.jsonl"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(bytes(range(256)) * 8)
    elif kind == "empty":
        path.write_text("")
    elif kind == "no-commands":
        path.write_text('{"t": 0, "dir": "out", "line": "(gdb) "}\n')
    message = one_line_error(run_replay(str(path)))
    assert message.startswith("cudatui replay: ") and str(path) in message


def test_gdb_flags_and_program_args_are_accepted():
    proc = run_replay(INSPECT, "--interpreter=mi3", "--quiet", "--nx", "--args", "python3", "bugs.py", "1",
                      stdin="4-exec-run\n5-cuda-info-contexts\n6-gdb-exit\n")
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.splitlines()[-1] == "6^exit"
    assert any(line.startswith("5^done,InfoCudaContextsTable=") for line in proc.stdout.splitlines())


async def test_session_over_replay_gets_rewritten_tokens_and_events():
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", INSPECT], ["python3", "bugs.py", "1"])
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    try:
        with pytest.raises(MIError, match="not in this recording"):
            await session.command("-break-insert", "reduce_racy")
        await session.command("-gdb-set", Flag("cuda"), Flag("break_on_launch"), Flag("none"))
        bp = await session.command("-break-insert", Flag("-f"), "reduce_racy")
        assert bp["bkpt"]["pending"] == "reduce_racy"
        await asyncio.wait_for(session.command("-exec-run"), 20)
        stopped = await asyncio.wait_for(_first(q, ev.Stopped), 20)
        assert stopped.stop.focus.sm == 128 and session.state == "stopped"
        payload = await session.command("-cuda-info-blocks")
        assert payload["CoalescedInfoCudaBlocksTable"]["body"][0]["count"] == "4"
    finally:
        await session.close()
    assert not session.alive


async def _first(q, kind):
    while True:
        event = await q.get()
        if isinstance(event, kind):
            return event


def _program_output_to(path: Path, gone_answers: list[bool]) -> None:
    """Replay race's first run with ``-inferior-tty-set`` naming ``path``, the front end answering
    "gone?" with ``gone_answers`` in turn (then "no")."""
    answers = iter(gone_answers)
    replayer = Replayer(load(str(RECORDINGS / "race.jsonl.gz")), io.StringIO(), 0.0, lambda: next(answers, False))
    replayer.start()
    replayer.handle(f"1-inferior-tty-set {json.dumps(str(path))}")
    replayer.handle("2-exec-run")
    if replayer.tty is not None:
        replayer.tty.close()


def test_program_output_reaches_the_file_the_front_end_named(tmp_path: Path):
    named = tmp_path / "out"
    named.write_text("before\n")
    _program_output_to(named, [False, False])
    assert named.read_text().startswith("before\n[race] GPU: NVIDIA H200")  # appended, never truncated


def test_a_terminal_named_by_its_path_is_never_written():
    """A pty's number may be another terminal's by the time its path is opened (its front end
    gone): only a pty handed over as a descriptor gets the output."""
    master, slave = os.openpty()
    try:
        _program_output_to(Path(os.ttyname(slave)), [False, False])
        os.set_blocking(master, False)
        with pytest.raises(BlockingIOError):
            os.read(master, 65536)
    finally:
        os.close(slave)
        os.close(master)


@pytest.mark.parametrize("answers", [[True], [False, True]], ids=["gone-before-the-open", "gone-during-the-open"])
def test_a_file_named_by_a_front_end_that_has_gone_is_never_written(tmp_path: Path, answers):
    """Asked after the open as well, a front end gone meanwhile leaves the program's output unwritten."""
    named = tmp_path / "out"
    named.write_text("another's\n")
    _program_output_to(named, answers)
    assert named.read_text() == "another's\n"


def test_a_handed_pty_gets_the_program_output_whatever_path_is_named():
    """The front end's own pty, handed over as a descriptor, is written to; the path in
    ``-inferior-tty-set`` is not opened (it may be another terminal's)."""
    master, slave = os.openpty()
    try:
        replayer = Replayer(load(str(RECORDINGS / "race.jsonl.gz")), io.StringIO(), 0.0, lambda: False, slave)
        replayer.start()
        replayer.handle('1-inferior-tty-set "/nonexistent/tty"')
        replayer.handle("2-exec-run")
        assert b"[race] GPU: NVIDIA H200" in os.read(master, 65536)
    finally:
        os.close(slave)
        os.close(master)


async def test_a_replay_session_hands_its_pty_to_the_stand_in():
    session = GdbSession([sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(RECORDINGS / "race.jsonl.gz")],
                         hand_tty=True)
    q = session.queue()
    await asyncio.wait_for(session.start(), 20)
    try:
        environ = dict(item.split("=", 1) for item in
                       Path(f"/proc/{session.pid}/environ").read_text().split("\0") if "=" in item)
        fd = environ["CUDATUI_PROGRAM_TTY_FD"]
        assert os.readlink(f"/proc/{session.pid}/fd/{fd}") == session.program_tty
        await asyncio.wait_for(session.command("-exec-run"), 20)
        said = ""
        while "[race] GPU: NVIDIA H200" not in said:
            said += (await asyncio.wait_for(_first(q, ev.ProgramOutput), 20)).text
    finally:
        await session.close()
