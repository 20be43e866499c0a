"""``python -m tests.support.typecheck``: mypy over the package as it is installed (``cudatui.gdbbridge``
is the folder gdbbridge/, ``cudatui.tui`` is tui/: pyproject.toml's package-dir), strict on gdbbridge.

mypy finds packages by folder, and an editable install maps these names through an import
hook it does not read; so the package is laid out as links in a temporary folder and mypy runs
there. Settings are in pyproject.toml ([tool.mypy]).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from tests.support.paths import ROOT

STRICT = ("cudatui.gdbbridge",)
"""The packages checked strictly (the backend every front end builds on)."""


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="cudatui-types-") as tmp:
        package = Path(tmp) / "cudatui"
        package.mkdir()
        for module in (ROOT / "cudatui").glob("*.py"):
            (package / module.name).symlink_to(module)
        for name in ("gdbbridge", "tui", "kernels"):
            (package / name).symlink_to(ROOT / name, target_is_directory=True)
        argv = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "--strict",
                "--cache-dir", str(ROOT / ".mypy_cache"), *(arg for name in STRICT for arg in ("-p", name))]
        return subprocess.call(argv, cwd=tmp)


if __name__ == "__main__":
    sys.exit(main())
