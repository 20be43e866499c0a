"""The Debugger is one class composed of parts, and the UI has no side door into its session.

- ``Debugger`` derives from no class of ours (no Core -> Queries -> Facade chain whose base
  calls its subclass); its parts are composed, each module of gdbbridge/debugger is small and
  none reaches across parts under ``type: ignore``.
- Nothing outside gdbbridge (the UI, the lesson tooling, the benches, the scripts, the test
  support that drives panes) reads ``.session``: whatever it needs is a Debugger method.
"""

from __future__ import annotations

import ast

from cudatui.gdbbridge import Debugger, LaunchConfig
from tests.support.paths import ROOT

OUTSIDE = ("tui", "bench", "scripts", "kernels", "tests/support")
"""Where no code may read a Debugger's ``session`` (tests/gdbbridge and the white-box transport
tests of tests/reliability may: they test the session itself)."""


def session_reads() -> list[str]:
    found = []
    for top in OUTSIDE:
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "session":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_nothing_outside_gdbbridge_reads_the_session() -> None:
    files = [p for top in OUTSIDE for p in (ROOT / top).rglob("*.py")]
    assert len(files) > 80
    assert session_reads() == []


def test_the_scan_finds_a_session_read() -> None:
    tree = ast.parse("state = app.debugger.session.inferior_pid\n")
    assert [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == "session"] == [
        "app.debugger.session"]


def test_the_debugger_has_no_base_class_of_ours() -> None:
    assert Debugger.__bases__ == (object,)
    ours = [c.__qualname__ for c in Debugger.__mro__[1:] if c.__module__.startswith("cudatui")]
    assert ours == []


def test_the_debugger_is_composed_of_parts_in_small_modules() -> None:
    modules = sorted((ROOT / "gdbbridge" / "debugger").glob("*.py"))
    long = {p.name: n for p in modules if (n := len(p.read_text(encoding="utf-8").splitlines())) >= 400}
    assert long == {}
    ignored = [f"{p.name}:{i}" for p in modules
               for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if "type: ignore" in line]
    assert ignored == []
    parts = {type(v).__name__ for v in vars(Debugger(_config())).values()}
    assert {"DebuggerContext", "RunControl", "StopRefresh", "StopQueries", "BreakpointEdits", "Viewpoint",
            "ConsoleCommands", "Follow"} <= parts


def _config() -> LaunchConfig:
    return LaunchConfig(debugger=("gdb",), target=("true",))
