"""gdbbridge is a library the UI uses: importing all of it must not pull in textual or rich."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_gdbbridge_imports_without_textual_or_rich():
    modules = sorted(p.stem for p in (ROOT / "gdbbridge").glob("*.py") if p.stem != "__init__")
    assert {"mi", "session", "replay", "cuda", "state", "breakpoints", "models"} <= set(modules)
    code = (
        "import importlib, sys\n"
        "import gdbbridge\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module('gdbbridge.' + name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich', 'tui'))\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
