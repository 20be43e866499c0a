"""faulthandler's report read as a host stack: a real Python process aborted with two threads, and
output that only looks like one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cudatui.gdbbridge.host.fault_trace import parse

PROGRAM = """
import os, threading
started = threading.Event()
def idle():
    started.set()
    threading.Event().wait()
threading.Thread(target=idle, daemon=True).start()
started.wait()
def inner():
    os.abort()
inner()
"""


def test_the_current_thread_comes_first_with_relative_names_made_absolute(tmp_path: Path) -> None:
    (tmp_path / "prog.py").write_text(PROGRAM)
    run = subprocess.run([sys.executable, "-X", "faulthandler", "prog.py"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60)
    stack = parse("some output first\n" + run.stderr.replace("\n", "\r\n"), 7, str(tmp_path))
    assert stack is not None and len(stack.threads) == 2
    current = stack.threads[0]
    assert current.tid == 7 and [(f.function, f.line) for f in current.frames] == [("inner", 10), ("<module>", 11)]
    assert current.frames[0].file == str(tmp_path / "prog.py") and current.frames[0].code == "os.abort()"
    other = stack.threads[1].user_frame
    assert other is not None and other.function == "idle"


def test_output_without_a_report_or_with_broken_lines_gives_what_it_can() -> None:
    assert parse("CUDA error: an illegal memory access was encountered\n", 1) is None
    forged = 'Fatal Python error: Aborted\n\nCurrent thread 0x1 (most recent call first):\n  File "a.py", line x in f\n' \
             '  File "/b.py", line 3 in g\x1b]2;t\x07\n  File "/c.py", line 4 in h\n'
    stack = parse(forged, 1)
    assert stack is not None and [(f.file, f.line) for f in stack.threads[0].frames] == [("/c.py", 4)]


def test_without_a_fault_report_the_last_traceback_is_the_stack(tmp_path: Path) -> None:
    """PyTorch raises at the sync point after the driver's dump: the traceback holds the line."""
    (tmp_path / "prog.py").write_text("def sync():\n    raise RuntimeError('CUDA error')\n\nsync()\n")
    run = subprocess.run([sys.executable, "prog.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    stack = parse(run.stderr, 9, str(tmp_path))
    assert stack is not None and stack.thread is not None and stack.thread.tid == 9
    assert [(f.function, f.line) for f in stack.thread.frames] == [("sync", 2), ("<module>", 4)]
