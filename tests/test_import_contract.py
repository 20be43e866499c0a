"""gdbbridge is a library the UI uses: importing all of it must not pull in textual or rich."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_gdbbridge_imports_without_textual_or_rich():
    modules = sorted(".".join(p.relative_to(ROOT / "gdbbridge").with_suffix("").parts)
                     for p in (ROOT / "gdbbridge").rglob("*.py") if p.stem != "__init__")
    assert {"session.mi", "session.gdb", "record.replay", "cuda.focus", "debugger.state", "debugger.breakpoints",
            "models"} <= set(modules)
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
