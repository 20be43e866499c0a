"""The host Python stack of a process that a real GNU gdb holds stopped (gdbbridge/host/reader.py).

A tiny C shared library is compiled here; a Python script loads it with ctypes and calls it
from a nested function, through a stand-in installed package (``site-packages/fakelib``, on a
relative path) and the standard library's ``sched``, while a second thread waits in user code.
gdb runs the script under cudatui's GdbSession and stops at the C function; pystack then reads
the script's frames while gdb holds the process, which stays stopped and runs on afterwards.
"""

from __future__ import annotations

import asyncio
import sched
import shutil
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from cudatui.gdbbridge.debugger import host as debugger_host
from cudatui.gdbbridge.debugger.config import LaunchConfig
from cudatui.gdbbridge.debugger.host import LOOP_THREADS, start_live_read
from cudatui.gdbbridge.host.reader import INSTALL_HINT, read_python_stack
from cudatui.gdbbridge.models.host import HostStack
from cudatui.gdbbridge.host.view import Folded, fold
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.gdb import GdbSession
from tests.support.paths import ROOT
from tests.support.programs import line_with

WAIT = 20.0
needs_gdb = pytest.mark.skipif(not (shutil.which("gdb") and shutil.which("gcc")), reason="needs gdb and gcc")

HOOK_C = "int cudatui_hook(int x) { return x + 1; }\n"
FAKELIB = '''"""A stand-in for an installed library that calls back into user code."""


def apply(fn, arg):
    return _call(fn, arg)  # FAKELIB APPLIES


def _call(fn, arg):
    return fn(arg)  # FAKELIB CALLS BACK
'''
SCRIPT = '''"""Calls a C function from a nested function, through a library and the stdlib."""
import ctypes
import sched
import sys
import threading

sys.path.insert(0, sys.argv[2])
import fakelib  # noqa: E402

hook = ctypes.CDLL(sys.argv[1]).cudatui_hook
done = threading.Event()


def idle():
    done.wait()  # HELPER WAITS


def launch(n):
    print("hook says", hook(n))  # THE CALL


def later(n):
    plan = sched.scheduler()
    plan.enter(0, 0, launch, (n,))
    plan.run()  # SCHEDULER RUNS


def main():
    helper = threading.Thread(target=idle, name="helper")
    helper.start()
    fakelib.apply(later, 41)  # MAIN APPLIES
    done.set()
    helper.join()


main()  # MODULE RUNS
'''


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding libhook.so, script.py and site-packages/fakelib."""
    home = tmp_path_factory.mktemp("host-stack")
    (home / "hook.c").write_text(HOOK_C)
    subprocess.run(["gcc", "-shared", "-fPIC", "-g", "-O0", "-o", str(home / "libhook.so"), str(home / "hook.c")],
                   check=True)
    (home / "site-packages" / "fakelib").mkdir(parents=True)
    (home / "site-packages" / "fakelib" / "__init__.py").write_text(FAKELIB)
    (home / "script.py").write_text(SCRIPT)
    return home


async def stopped_at(session: GdbSession, function: str) -> asyncio.Queue[ev.Event]:
    """Run the session's program to a breakpoint on ``function``; the event queue after the stop."""
    q = session.queue()
    await asyncio.wait_for(session.start(), WAIT)
    await session.command("-break-insert", "-f", function)
    await session.command("-exec-run")

    async def stop() -> ev.Stopped:
        while not isinstance(event := await q.get(), ev.Stopped):
            pass
        return event

    stopped = await asyncio.wait_for(stop(), WAIT)
    assert stopped.stop.frame is not None and stopped.stop.frame.func == function
    return q


def proc_state(pid: int) -> str:
    """The one-letter state of ``pid`` (``t``: stopped by a tracer)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


@needs_gdb
async def test_the_scripts_frames_are_read_while_gdb_holds_the_process(program: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       ) -> None:
    session = GdbSession(["gdb"], [sys.executable, "script.py", str(program / "libhook.so"), "site-packages"],
                         cwd=program)
    try:
        q = await stopped_at(session, "cudatui_hook")
        pid = session.inferior_pid
        assert pid is not None and proc_state(pid) == "t"

        stack = read_python_stack(pid)
        assert stack.error is None and stack.pid == pid
        assert proc_state(pid) == "t"  # pystack read it without resuming it (stop_process=False)
        main = stack.thread
        assert main is not None and main.tid == pid
        script, fakelib = str(program / "script.py"), str(program / "site-packages" / "fakelib" / "__init__.py")
        where = [(f.file, f.line, f.function, f.user) for f in main.frames]
        assert where[0] == (script, line_with(SCRIPT, "THE CALL"), "launch", True)
        assert where[1] == (sched.__file__, where[1][1], "run", False)  # the stdlib: this interpreter's
        assert "action(" in main.frames[1].code
        assert where[2:] == [
            (script, line_with(SCRIPT, "SCHEDULER RUNS"), "later", True),
            (fakelib, line_with(FAKELIB, "FAKELIB CALLS BACK"), "_call", False),
            (fakelib, line_with(FAKELIB, "FAKELIB APPLIES"), "apply", False),
            (script, line_with(SCRIPT, "MAIN APPLIES"), "main", True),
            (script, line_with(SCRIPT, "MODULE RUNS"), "<module>", True),
        ]
        assert main.frames[0].code == 'print("hook says", hook(n))  # THE CALL'
        assert main.frames[3].code == "return fn(arg)  # FAKELIB CALLS BACK"
        assert stack.user_frame == main.frames[0]
        assert [f.text if isinstance(f, Folded) else f.function for f in fold(main.frames)] == [
            "launch", "… 1 frame in sched", "later", "… 2 frames in fakelib", "main", "<module>"]

        helper = next(t for t in stack.threads if t.tid != pid)
        assert helper.user_frame is not None and helper.user_frame.function == "idle"
        assert helper.user_frame.code == "done.wait()  # HELPER WAITS"
        assert [f.user for f in helper.frames][:1] == [False]  # threading's wait, innermost

        # a stop's read: on the event loop (its thread), unless the process had many Python threads
        readers: list[int] = []

        def watched(pid: int) -> HostStack:
            readers.append(threading.get_ident())
            return read_python_stack(pid)

        monkeypatch.setattr(debugger_host, "read_python_stack", watched)
        config = LaunchConfig(debugger=("gdb",), target=("script.py", str(program / "libhook.so"), "site-packages"),
                              cwd=str(program))
        many = replace(stack, threads=(helper,) * (LOOP_THREADS + 1))
        for last in (None, stack, many, replace(many, pid=pid + 1)):
            live = start_live_read(session, config, last)
            assert live is not None and (await live)[0] == stack
        loop = threading.get_ident()
        assert readers[:2] == [loop, loop] and readers[2] != loop and readers[3] == loop, (readers, loop)

        await session.command("-exec-continue")
        while not isinstance(event := await asyncio.wait_for(q.get(), WAIT), ev.Stopped):
            pass
        assert event.stop.reason == "exited-normally"  # the read left the program intact
    finally:
        await session.close()


@needs_gdb
async def test_a_c_program_held_by_gdb_gives_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "prog.c").write_text("int main(void) { return 0; }\n")
    subprocess.run(["gcc", "-g", "-O0", "-o", str(tmp_path / "prog"), str(tmp_path / "prog.c")], check=True)
    session = GdbSession(["gdb"], [str(tmp_path / "prog")])
    try:
        await stopped_at(session, "main")
        pid = session.inferior_pid
        assert pid is not None
        stack = read_python_stack(pid)
        assert stack.threads == () and stack.error is not None
        assert stack.error.startswith(f"cannot read the Python stack of process {pid}: ")
        assert "\n" not in stack.error and "Traceback" not in stack.error
    finally:
        await session.close()


def test_a_process_that_is_gone_gives_a_one_line_error() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    stack = read_python_stack(child.pid)
    assert stack == HostStack(child.pid, (), stack.error)
    assert stack.error is not None and stack.error.startswith(f"cannot read the Python stack of process {child.pid}: ")
    assert "\n" not in stack.error


def run_python(code: str) -> str:
    """What ``code`` prints, run by this interpreter from the checkout."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_without_pystack_the_error_is_the_install_hint() -> None:
    said = run_python("import os, sys\n"
                      "sys.modules['pystack'] = None\n"
                      "from cudatui.gdbbridge.host.reader import read_python_stack\n"
                      "stack = read_python_stack(os.getpid())\n"
                      "print(repr((stack.threads, stack.error)))\n")
    assert said == repr(((), INSTALL_HINT))


def test_pystack_is_imported_only_by_a_read() -> None:
    said = run_python("import sys\n"
                      "import cudatui.gdbbridge.host.encoding, cudatui.gdbbridge.host.reader, cudatui.gdbbridge.host.view\n"
                      "print('pystack' in sys.modules)\n")
    assert said == "False"
