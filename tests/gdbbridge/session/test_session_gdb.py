"""GdbSession against a real GNU gdb on tiny C programs compiled here (gcc -g -O0).

Covers execution control, locals and registers through the refresh batch, interrupting a
program that never stops, program output that imitates MI, gdb killed mid-session, quoting of
hostile strings, big output, conditional breakpoints and recording + replaying a live session.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable

import pytest

from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints
from cudatui.gdbbridge.session.mi import Flag, parse_line
from cudatui.gdbbridge.models import Breakpoint, StopEvent
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.debugger.state import StateBuilder
from tests.support.paths import FIXTURES
from tests.support.processes import gone
from tests.support.programs import marked_line, needs_gdb
from tests.support.wait import until

SOURCES = FIXTURES / "c" / "bridge"
WAIT = 20.0

pytestmark = needs_gdb


@pytest.fixture(scope="module")
def bins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every program of tests/fixtures/c/bridge, compiled with -g -O0."""
    out = tmp_path_factory.mktemp("bridge-bin")
    built = {}
    for source in sorted(SOURCES.glob("*.c")):
        exe = out / source.stem
        subprocess.run(["gcc", "-g", "-O0", "-o", str(exe), str(source)], check=True)
        built[source.stem] = exe
    return built


def line_of(program: str, marker: str) -> int:
    """The line number of the line holding ``marker`` in ``<program>.c``."""
    return marked_line(SOURCES / f"{program}.c", marker)


async def next_event(q: asyncio.Queue[ev.Event], match: Callable[[ev.Event], bool]) -> ev.Event:
    """The next event satisfying ``match`` (others are dropped); fails after WAIT seconds."""

    async def scan() -> ev.Event:
        while True:
            event = await q.get()
            if match(event):
                return event

    return await asyncio.wait_for(scan(), WAIT)


def drain(q: asyncio.Queue[ev.Event]) -> list[ev.Event]:
    items = []
    while not q.empty():
        items.append(q.get_nowait())
    return items


async def resume(session: GdbSession, q: asyncio.Queue[ev.Event], operation: str, *args: str | int | Flag) -> StopEvent:
    """Send an execution command and wait for the ``*stopped`` it leads to."""
    drain(q)
    await asyncio.wait_for(session.command(operation, *args), WAIT)
    stopped = await next_event(q, lambda e: isinstance(e, ev.Stopped))
    assert isinstance(stopped, ev.Stopped)
    return stopped.stop


async def output_until(session: GdbSession, needle: str) -> str:
    """All program output of ``session`` so far, once it contains ``needle`` (fails after WAIT s)."""
    seen = OUTPUT[session]
    await until(lambda: needle in "".join(seen), WAIT, lambda: f"the program to print {needle!r}; got {''.join(seen)[-300:]!r}")
    return "".join(seen)


OUTPUT: dict[GdbSession, list[str]] = {}


@pytest.fixture
async def open_session():
    """Factory for started sessions; every one is closed (and reaped) after the test."""
    sessions: list[GdbSession] = []

    async def make(program: list[str], **kwargs) -> tuple[GdbSession, asyncio.Queue[ev.Event]]:
        session = GdbSession(kwargs.pop("debugger", ["gdb"]), program, **kwargs)
        q = session.queue()
        OUTPUT[session] = out = []
        session.subscribe(lambda e: out.append(e.text) if isinstance(e, ev.ProgramOutput) else None)
        sessions.append(session)
        await asyncio.wait_for(session.start(), WAIT)
        return session, q

    yield make
    for session in sessions:
        await session.close()
        OUTPUT.pop(session, None)


def proc_state(pid: int) -> str | None:
    """The one-letter state of ``pid`` from /proc, or None when it no longer exists."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def user_ticks(pid: int) -> int:
    """The user CPU time ``pid`` has run, in clock ticks (field 14 of /proc/PID/stat)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11])


# -- execution control -------------------------------------------------------------------------


async def test_break_run_next_step_finish_continue(bins, open_session):
    session, q = await open_session([str(bins["steps"])])
    assert session.async_mode and session.state == "ready"
    bp = Breakpoint.from_mi((await session.command("-break-insert", "main"))["bkpt"])
    assert bp.func == "main" and not bp.pending

    stop = await resume(session, q, "-exec-run")
    assert (stop.reason, stop.breakpoint, stop.frame.func) == ("breakpoint-hit", bp.number, "main")
    assert session.state == "stopped" and session.inferior_pid and proc_state(session.inferior_pid)
    start_line = stop.frame.line

    stop = await resume(session, q, "-exec-next")
    assert stop.reason == "end-stepping-range" and stop.frame.line > start_line

    loop = line_of("steps", "LOOP_LINE")
    await session.command("-break-insert", f"steps.c:{loop}")
    stop = await resume(session, q, "-exec-continue")
    assert stop.frame.line == loop and stop.frame.func == "main"

    stop = await resume(session, q, "-exec-step")
    assert stop.frame.func == "square" and dict(stop.frame.args) == {"x": "0"}

    stop = await resume(session, q, "-exec-finish")
    assert stop.reason == "function-finished" and stop.frame.func == "main"

    await session.command("-break-delete")
    stop = await resume(session, q, "-exec-continue")
    assert stop.reason == "exited-normally" and stop.exited and stop.exit_code == 0
    assert session.state == "exited" and session.exit_code == 0
    assert "total=30" in await output_until(session, "total=30")


async def test_locals_and_registers_through_refresh(bins, open_session):
    session, q = await open_session([str(bins["steps"])])
    await session.command("-break-insert", Flag("-f"), "square")
    stop = await resume(session, q, "-exec-run")
    stop = await resume(session, q, "-exec-next")  # result = x * x assigned
    state = await asyncio.wait_for(StateBuilder(session).refresh(stop), WAIT)

    assert state.generation == 1 and not state.errors
    assert [f.func for f in state.frames] == ["square", "main"]
    assert {v.name: v.value for v in state.variables} == {"x": "0", "result": "0"}
    assert [v.is_arg for v in state.variables] == [True, False]
    names = [r.name for r in state.registers]
    assert "" not in names and len(names) == len(set(names))
    regs = {r.name: r for r in state.registers}
    assert regs["rip"].int_value == stop.frame.addr
    assert regs["rsp"].int_value and regs["rsp"].int_value % 8 == 0
    assert [b.func for b in state.breakpoints] == ["square"] and state.breakpoints[0].hits == 1

    stop = await resume(session, q, "-exec-continue")
    state2 = await asyncio.wait_for(StateBuilder(session).refresh(stop, selected_frame=1), WAIT)
    assert state2.frame.func == "main" and dict(state2.stop.frame.args) == {"x": "1"}
    assert {v.name for v in state2.variables} == {"total", "i"}


@pytest.mark.parametrize("code", [10, 8, 1, 255])
async def test_exit_code_is_read_from_octal(bins, open_session, code):
    """gdb writes ``exit-code="012"`` for 10 (octal): the stop and the session both say 10."""
    session, q = await open_session([str(bins["exit_with"]), str(code)])
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    stop = await resume(session, q, "-exec-run")
    assert stop.reason == "exited" and stop.exited and stop.exit_code == code
    exited = [e.payload for e in seen if isinstance(e, ev.Notify) and e.name == "thread-group-exited"]
    assert [p["exit-code"] for p in exited] == [f"0{code:o}"]
    assert session.state == "exited" and session.exit_code == code


async def test_raw_lines_in_both_directions(bins, open_session):
    """subscribe_raw sees each command as written and each line as gdb printed it, in order."""
    session, q = await open_session([str(bins["steps"])])
    raw: list[ev.RawLine] = []
    unsubscribe = session.subscribe_raw(raw.append)
    payload = await session.command("-break-insert", "main")
    sent = [r for r in raw if r.direction == "in"]
    assert len(sent) == 1 and sent[0].text.endswith('-break-insert "main"')
    token = sent[0].text.split("-", 1)[0]
    answer = next(i for i, r in enumerate(raw) if r.direction == "out" and r.text.startswith(f"{token}^done,bkpt="))
    assert raw.index(sent[0]) < answer and parse_line(raw[answer].text).payload == payload
    await resume(session, q, "-exec-run")
    assert any(r.direction == "out" and r.text.startswith("*stopped,reason=\"breakpoint-hit\"") for r in raw)
    unsubscribe()
    count = len(raw)
    await session.command("-stack-info-depth")
    assert len(raw) == count


# -- interrupting a program that never stops ---------------------------------------------------


async def test_interrupt_infinite_loop(bins, open_session):
    session, q = await open_session([str(bins["forever"])])
    drain(q)
    await session.command("-exec-run")
    await output_until(session, "looping")
    assert session.state == "running"
    await session.interrupt()
    stopped = await next_event(q, lambda e: isinstance(e, ev.Stopped))
    assert stopped.stop.reason == "signal-received" and stopped.stop.signal in ("SIGINT", "0")
    assert session.state == "stopped"
    first = int((await session.command("-data-evaluate-expression", "counter"))["value"])
    assert first > 0

    ran = user_ticks(session.inferior_pid)
    await session.command("-exec-continue")
    # the loop has run (counted on its CPU time: a stopped program runs no user code)
    await until(lambda: session.state == "running" and user_ticks(session.inferior_pid) > ran, why="the loop to run again")
    await session.interrupt()
    await next_event(q, lambda e: isinstance(e, ev.Stopped))
    assert int((await session.command("-data-evaluate-expression", "counter"))["value"]) > first


async def test_interrupt_falls_back_to_sigint_without_async_mode(bins, open_session):
    session, q = await open_session([str(bins["forever"])])
    await session.command("-gdb-set", Flag("mi-async"), Flag("off"))
    session.async_mode = False
    await session.command("-exec-run")
    await output_until(session, "looping")
    inferior = session.inferior_pid
    assert inferior and proc_state(inferior) in ("R", "S")
    await session.interrupt()
    stopped = await next_event(q, lambda e: isinstance(e, ev.Stopped))
    assert stopped.stop.reason == "signal-received" and stopped.stop.signal == "SIGINT"
    assert session.state == "stopped"
    assert (await session.command("-data-evaluate-expression", "counter > 0"))["value"] == "1"


# -- program output that looks like MI --------------------------------------------------------


async def test_program_output_imitating_mi_is_program_output(bins, open_session):
    session, q = await open_session([str(bins["fake_mi"])])
    seen: list[ev.Event] = []
    session.subscribe(seen.append)
    after = line_of("fake_mi", "AFTER_LINE")
    await session.command("-break-insert", f"fake_mi.c:{after}")
    stop = await resume(session, q, "-exec-run")
    text = await output_until(session, "from stderr")

    assert stop.reason == "breakpoint-hit" and stop.frame.line == after
    assert session.state == "stopped" and session.exit_code is None
    for fake in ('*stopped,reason="exited-normally"', "^done", '~"x"', 'exit-code="7"',
                 "\x1b[31mred\x1b[0m", "\x1b]0;title\x07", "\x1b[2J", '^error,msg="from stderr"'):
        assert fake in text
    assert not [e for e in seen if isinstance(e, (ev.NonMI, ev.UnmatchedResult))]
    assert not [e for e in seen if isinstance(e, ev.Stream) and "red" in e.text]

    stop = await resume(session, q, "-exec-continue")
    assert stop.reason == "exited-normally" and session.exit_code == 0


# -- gdb killed with SIGKILL ------------------------------------------------------------------


async def _kill_gdb_with_request_pending(session: GdbSession, q) -> tuple[asyncio.Task, ev.DebuggerExited]:
    os.kill(session.pid, signal.SIGSTOP)
    sent: list[str] = []
    unsubscribe = session.subscribe_raw(lambda r: sent.append(r.text) if r.direction == "in" else None)
    pending = asyncio.ensure_future(session.command("-data-evaluate-expression", "counter"))
    await until(lambda: any("-data-evaluate-expression" in text for text in sent), why="the request written to gdb")
    unsubscribe()
    assert not pending.done()
    os.kill(session.pid, signal.SIGKILL)
    exited = await next_event(q, lambda e: isinstance(e, ev.DebuggerExited))
    return pending, exited  # type: ignore[return-value]


@pytest.mark.parametrize("when", ["running", "stopped"])
async def test_gdb_sigkill_mid_session(bins, open_session, when):
    session, q = await open_session([str(bins["forever"])])
    if when == "stopped":
        await session.command("-break-insert", "main")
        await resume(session, q, "-exec-run")
        assert session.state == "stopped"
    else:
        await session.command("-exec-run")
        await output_until(session, "looping")
        assert session.state == "running"
    gdb_pid, inferior = session.pid, session.inferior_pid
    assert inferior and proc_state(inferior)

    pending, exited = await _kill_gdb_with_request_pending(session, q)
    assert exited.returncode == -9 and not exited.expected
    assert "SIGKILL" in exited.description
    with pytest.raises(DebuggerGone, match="SIGKILL"):
        await asyncio.wait_for(pending, WAIT)
    assert session.state == "dead" and not session.alive
    with pytest.raises(DebuggerGone):
        await session.command("-gdb-version")
    await until(lambda: gone(inferior), why="the debuggee to end with its debugger")  # gdb spawns it with PTRACE_O_EXITKILL

    await session.close()
    assert proc_state(gdb_pid) is None, "gdb left a zombie"


async def test_close_reaps_gdb_and_running_debuggee(bins, open_session):
    session, q = await open_session([str(bins["forever"])])
    await session.command("-exec-run")
    await output_until(session, "looping")
    gdb_pid, inferior = session.pid, session.inferior_pid
    await session.close()
    assert proc_state(gdb_pid) is None
    await until(lambda: gone(inferior), why="the debuggee to end")
    exits = [e for e in drain(q) if isinstance(e, ev.DebuggerExited)]
    assert len(exits) == 1 and exits[0].expected


# -- quoting of hostile strings ---------------------------------------------------------------

NASTY = [
    'say "hi"',
    "back\\slash\\",
    'both \\" end',
    "line\nbreak",
    "1\n-gdb-exit",
    '"\n-gdb-exit\n"',
    "tab\tand\rcr",
    "ctrl\x01\x02\x1b[31m\x7f",
    "unicode é ☃ 中文",
    "$HOME `id` ; * ?",
    "",
]


def c_literal(text: str) -> str:
    """``text`` as a C string literal where every byte outside printable ASCII is octal."""
    out = []
    for byte in text.encode():
        ch = chr(byte)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
async def test_nasty_strings_reach_gdb_intact(bins, open_session, text):
    session, q = await open_session([str(bins["echo_args"])])
    await session.command("-break-insert", "main")
    await resume(session, q, "-exec-run")
    # gdb stores a breakpoint condition verbatim: it must come back exactly as sent.
    condition = f"$_streq(text, {c_literal(text)}) == 0"
    bp = Breakpoint.from_mi((await session.command("-break-insert", Flag("-c"), condition, "main"))["bkpt"])
    assert bp.condition == condition
    # The same bytes written raw inside the expression compare equal to their escaped form.
    raw = '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if "\n" not in text:
        equal = await session.command("-data-evaluate-expression", f"$_streq({raw}, {c_literal(text)})")
        assert equal["value"] == "1"
        length = await session.command("-data-evaluate-expression", f"sizeof({raw})")
        assert int(length["value"]) == len(text.encode()) + 1
    else:
        with pytest.raises(MIError):
            await session.command("-data-evaluate-expression", text)
    assert session.alive and (await session.command("-data-evaluate-expression", "1+1"))["value"] == "2"


async def test_program_arguments_arrive_intact(bins, open_session):
    args = ["a b", 'q"uote', "it's", "back\\slash", "tab\there", "unicode é", "$HOME", "*", "semi;colon", "-x"]
    session, q = await open_session([str(bins["echo_args"]), *args])
    stop = await resume(session, q, "-exec-run")
    assert stop.reason == "exited-normally"
    text = await output_until(session, "end-of-args")
    got = {}
    for line in text.replace("\r", "").splitlines():
        if line.startswith("arg"):
            number, _, hexed = line.partition(":")
            got[int(number[3:])] = bytes.fromhex(hexed).decode()
    assert [got.get(i) for i in range(1, len(args) + 1)] == args


# -- big output, big MI lines, conditions -------------------------------------------------------


async def test_big_program_output_arrives_whole(bins, open_session):
    session, q = await open_session([str(bins["big_output"])])
    stop = await resume(session, q, "-exec-run")
    assert stop.reason == "exited-normally"
    text = (await output_until(session, "line 019999 abcdefghijklmnopqrstuvwxyz0123456789\n")).replace("\r\n", "\n")
    expected = "".join(f"line {i:06d} abcdefghijklmnopqrstuvwxyz0123456789\n" for i in range(20000))
    assert text == expected


async def test_big_mi_line_parsed_off_loop(bins, open_session):
    session, q = await open_session([str(bins["big_output"])])
    await session.command("-break-insert", f"big_output.c:{line_of('big_output', 'END_LINE')}")
    await resume(session, q, "-exec-run")
    await session.command("-gdb-set", Flag("print"), Flag("elements"), Flag("unlimited"))
    value = (await session.command("-data-evaluate-expression", "blob"))["value"]
    assert len(value) > 64 * 1024
    assert [int(v) for v in value.strip("{}").split(",")] == list(range(16000))


async def test_condition_breakpoint(bins, open_session):
    session, q = await open_session([str(bins["steps"])])
    bps = Breakpoints(session)
    bp = await bps.insert("square", "x == 3")
    assert bp.condition == "x == 3" and not bps.deferred
    stop = await resume(session, q, "-exec-run")
    assert stop.breakpoint == bp.number and dict(stop.frame.args) == {"x": "3"}
    with pytest.raises(MIError, match="No symbol"):
        await bps.insert("square", "nosuchvar == 1")


async def test_breakpoint_with_two_locations_and_a_condition(bins, open_session):
    """A line of a function inlined twice: gdb answers <MULTIPLE> with two locations."""
    session, q = await open_session([str(bins["inlined"])])
    bps = Breakpoints(session)
    line = line_of("inlined", "TWICE_BODY")
    plain = await bps.insert(f"inlined.c:{line}")
    assert plain.number == 1 and [(loc.number, loc.line) for loc in plain.locations] == [("1.1", line), ("1.2", line)]
    assert (Path(plain.file).name, plain.line, plain.func) == ("inlined.c", line, "twice")
    conditional = await bps.insert(f"inlined.c:{line}", "x == 2")
    assert conditional.number == 2 and conditional.condition == "x == 2" and len(conditional.locations) == 2
    await bps.delete(plain.number)
    stop = await resume(session, q, "-exec-run")
    assert stop.breakpoint == conditional.number
    assert (await session.command("-data-evaluate-expression", "x"))["value"] == "2"
    state = await StateBuilder(session).refresh(stop)
    assert [(bp.number, len(bp.locations), bp.hits) for bp in state.breakpoints] == [(2, 2, 1)]


# -- recording, and replaying the recording --------------------------------------------------


async def _steps_session_states(session: GdbSession, q) -> list:
    builder = StateBuilder(session)
    await session.command("-break-insert", Flag("-f"), "square")
    states = []
    for operation, frame in (("-exec-run", 0), ("-exec-next", 0), ("-exec-continue", 1)):
        stop = await resume(session, q, operation)
        states.append(await asyncio.wait_for(builder.refresh(stop, selected_frame=frame), WAIT))
    return states


async def test_record_then_replay_gives_same_states(bins, open_session, tmp_path):
    transcript = tmp_path / "steps.jsonl"
    session, q = await open_session([str(bins["steps"])], record=transcript)
    live = await _steps_session_states(session, q)
    lines = transcript.read_text().splitlines()
    entries = [json.loads(line) for line in lines]  # valid JSON while the session still runs
    assert entries[0]["dir"] == "meta" and entries[0]["version"] == 1
    assert {e["dir"] for e in entries} >= {"in", "out", "mark"}
    await session.close()
    assert json.loads(transcript.read_text().splitlines()[-1])["dir"] in ("out", "mark", "program")

    replay = [sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(transcript)]
    session2, q2 = await open_session([str(bins["steps"])], debugger=replay)
    replayed = await _steps_session_states(session2, q2)
    assert replayed == live
    assert [s.frames[0].func for s in live] == ["square", "square", "square"]


async def test_replay_of_recording_with_shifted_tokens(bins, open_session, tmp_path):
    transcript = tmp_path / "steps.jsonl"
    session, q = await open_session([str(bins["steps"])], record=transcript)
    live = await _steps_session_states(session, q)
    await session.close()

    replay = [sys.executable, "-m", "cudatui.gdbbridge.record.replay", str(transcript)]
    session2, q2 = await open_session([str(bins["steps"])], debugger=replay)
    with pytest.raises(MIError, match="not in this recording"):
        await session2.command("-gdb-version")
    assert await _steps_session_states(session2, q2) == live
