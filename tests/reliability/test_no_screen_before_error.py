"""Issue 36: a debugger that cannot start writes no screen codes before its one line.

``cudatui --debugger /bin/false PROGRAM`` in a real terminal (a pty, every byte kept): the
full screen opened (alternate screen ``ESC [ ? 1049 h``, mouse reporting, a first frame), then
closed again over the error line, some 17 KB of escape codes that a terminal log (``script``,
tmux's scrollback, CI) kept. Now the debugger is started alone first
(``gdbbridge.session.startup_check``): the terminal gets the one line and nothing else, exit 2.
Same for a debugger that exits 0 at once (/bin/true), one that is no gdb (/bin/cat refuses
``--interpreter=mi3``) and one that dies of a signal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.processes import in_directory
from tests.support.terminal import TerminalApp


def killed_by_a_signal(directory: Path) -> str:
    script = directory / "crash-gdb"
    script.write_text("#!/bin/sh\nkill -SEGV $$\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize(("debugger", "line"), [
    ("/bin/false", "cudatui: false exited with code 1 at startup"),
    ("/bin/true", "cudatui: true exited with code 0 at startup"),
    ("/bin/cat", "cudatui: cat exited with code 1 at startup (/bin/cat: unrecognized option '--interpreter=mi3')"),
    (killed_by_a_signal, "cudatui: crash-gdb killed by SIGSEGV at startup"),
], ids=["false", "true", "cat", "killed"])
def test_the_terminal_gets_the_one_line_and_no_screen_code(tmp_path: Path, debugger, line: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    chosen = debugger(tmp_path) if callable(debugger) else debugger
    app = TerminalApp(["--debugger", chosen, "/bin/ls"], cwd=work)
    try:
        assert app.wait(timeout=60) == 2
    finally:
        app.close()
    written = bytes(app.output)
    assert written == line.encode() + b"\r\n", written[:300]  # no ESC [ ? 1049 h, no mouse mode, nothing else
    assert not in_directory(work)
