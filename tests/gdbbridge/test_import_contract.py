"""gdbbridge is a library the UI uses: importing all of it must not pull in textual or rich."""

from __future__ import annotations

import ast
import subprocess
import sys
from tests.support.paths import ROOT


def test_gdbbridge_imports_without_textual_or_rich():
    modules = sorted(".".join(p.relative_to(ROOT / "gdbbridge").with_suffix("").parts)
                     for p in (ROOT / "gdbbridge").rglob("*.py") if p.stem != "__init__")
    assert {"session.mi", "session.gdb", "record.replay", "cuda.focus", "debugger.state", "debugger.breakpoints",
            "models.cuda"} <= set(modules)
    code = (
        "import importlib, sys\n"
        "import cudatui.gdbbridge\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module('cudatui.gdbbridge.' + name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'tui') or m.startswith('cudatui.tui'))\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_the_public_api_loads_each_name_from_its_module_on_first_use():
    """``import cudatui.gdbbridge`` imports no submodule (the replay's ``python -m`` must not find
    its own module imported); every name of ``__all__`` is the object its module defines."""
    code = (
        "import importlib, sys\n"
        "import cudatui.gdbbridge as api\n"
        "print(sorted(m for m in sys.modules if m.startswith('cudatui.gdbbridge.')))\n"
        "for name in api.__all__:\n"
        "    module = importlib.import_module(api._MODULE_OF[name])\n"
        "    assert name in vars(module) and vars(module)[name] is getattr(api, name), name\n"
        "print(len(api.__all__))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    loaded, count = proc.stdout.splitlines()
    assert loaded == "[]" and int(count) > 50


def test_the_ui_uses_only_the_public_api():
    """Every module of tui/ (the apps, the CLI, the panes...) imports gdbbridge names from
    ``cudatui.gdbbridge`` alone; only the lesson-path tooling beside the product reaches further."""
    files = [path for path in (ROOT / "tui").rglob("*.py") if "tooling" not in path.relative_to(ROOT / "tui").parts]
    internal = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = ([node.module or ""] if isinstance(node, ast.ImportFrom) else
                       [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            internal += [f"{path.name}: {m}" for m in modules if m.startswith("cudatui.gdbbridge.")]
    assert len(files) > 60 and not internal, internal
