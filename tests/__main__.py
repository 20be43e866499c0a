"""``python -m tests``: every tier of the checks, fastest first; the run stops at the first red
tier; each tier's time is printed, then the total.

1. lint: ``ruff check .``
2. types: mypy, strict, on gdbbridge (tests/support/typecheck.py)
3. unit: gdbbridge (a folder per subpackage), the panes and the layout rules (tests/test_*.py: no
   import cycle, the README and CI agree) (pytest, four workers)
4. app, e2e, reliability, snapshots (with bench and gpu): one pytest run on four workers; the
   tests marked ``long`` (the tmux lesson walks) are handed out first, one test at a time
   (``--maxschedchunk 1``), so that the short ones fill every worker until the end.

Arguments after ``--`` go to every pytest run (``python -m tests -- -x``). GPU tests are marked
``gpu`` and skip themselves without a GPU.

The tiers write Python's bytecode to .pytest_cache/pycache (``PYTHONPYCACHEPREFIX``), even where
``PYTHONDONTWRITEBYTECODE`` is set (the 2-core machines set it): otherwise every pytest worker
compiled every module and rewrote the asserts of every test module again (collecting tier 4: 5.0 s
of CPU, 2.3 s with the cache), and every app, replay stand-in and tool a test starts compiled
cudatui again. The repository's own folders stay free of ``__pycache__``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from tests.support.paths import ROOT


def bytecode_cached() -> dict[str, str]:
    """The environment of the tiers: bytecode written once, to .pytest_cache/pycache, and read by
    every process after."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(ROOT / ".pytest_cache" / "pycache")
    return env


def run(name: str, argv: list[str]) -> int:
    """Run one tier; print its time and outcome."""
    print(f"== {name}: {' '.join(argv)}", flush=True)
    start = time.monotonic()
    code = subprocess.call(argv, cwd=ROOT, env=bytecode_cached())
    print(f"== {name}: {'ok' if code == 0 else f'FAILED ({code})'} in {time.monotonic() - start:.0f} s", flush=True)
    return code


def tiers(extra: list[str]) -> dict[str, list[str]]:
    pytest = [sys.executable, "-m", "pytest", *extra]
    return {
        "lint": [sys.executable, "-m", "ruff", "check", "."],
        "types": [sys.executable, "-m", "tests.support.typecheck"],
        "unit": [*pytest, *map(str, sorted((ROOT / "tests").glob("test_*.py"))), "tests/gdbbridge", "tests/panes"],
        "app, e2e, reliability, snapshots": [*pytest, "-n", "4", "--maxschedchunk", "1", "tests/app", "tests/e2e",
                                             "tests/reliability", "tests/snapshots", "tests/bench", "tests/gpu"],
    }


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    start = time.monotonic()
    code = 0
    for name, tier in tiers(extra).items():
        code = run(name, tier)
        if code:
            break
    print(f"== all tiers: {'ok' if code == 0 else 'FAILED'} in {time.monotonic() - start:.0f} s", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
