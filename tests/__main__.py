"""``python -m tests``: every tier of the checks, fastest first, each failing fast; its time printed.

1. lint: ``ruff check .``
2. types: mypy, strict, on gdbbridge (tests/support/typecheck.py)
3. unit: gdbbridge, the panes and the layout rules (tests/test_*.py: no import cycle, the README
   and CI agree) (pytest, four workers)
4. app, terminal and reliability, two runs side by side: the tmux lesson walks one at a time
   (they hold one terminal each and are starved when several replay at once on two cores), and
   everything else (app, e2e, reliability, snapshots, bench, gpu) on three workers beside them.

Arguments after ``--`` go to every pytest run (``python -m tests -- -x``). GPU tests are marked
``gpu`` and skip themselves without a GPU.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.support.paths import ROOT

WALKS = "one_at_a_time"
"""The marker of the tests that run one after the other (tests/conftest.py)."""


def run(name: str, argv: list[str]) -> int:
    """Run one tier in the foreground; print its time and outcome."""
    print(f"== {name}: {' '.join(argv)}", flush=True)
    start = time.monotonic()
    code = subprocess.call(argv, cwd=ROOT)
    print(f"== {name}: {'ok' if code == 0 else f'FAILED ({code})'} in {time.monotonic() - start:.0f} s", flush=True)
    return code


def side_by_side(tiers: dict[str, list[str]], logs: Path) -> int:
    """Run the tiers at once, the first in the foreground, the others into log files printed
    after it; the first non-zero exit code, else 0."""
    (first, argv), *rest = tiers.items()
    started = time.monotonic()
    background = {}
    for name, other in rest:
        log = logs / f"{name}.log"
        background[name] = (subprocess.Popen(other, cwd=ROOT, stdout=log.open("w"), stderr=subprocess.STDOUT), log)
    codes = [run(first, argv)]
    for name, (proc, log) in background.items():
        code = proc.wait()
        print(f"== {name}: {' '.join(proc.args)}", flush=True)  # type: ignore[arg-type]
        sys.stdout.write(log.read_text())
        print(f"== {name}: {'ok' if code == 0 else f'FAILED ({code})'} "
              f"in {time.monotonic() - started:.0f} s (side by side)", flush=True)
        codes.append(code)
    return next((code for code in codes if code), 0)


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    pytest = [sys.executable, "-m", "pytest", *extra]
    start = time.monotonic()
    for name, tier in (("lint", [sys.executable, "-m", "ruff", "check", "."]),
                       ("types", [sys.executable, "-m", "tests.support.typecheck"]),
                       ("unit", [*pytest, *map(str, sorted((ROOT / "tests").glob("test_*.py"))), "tests/gdbbridge",
                                 "tests/panes"])):
        code = run(name, tier)
        if code:
            return code
    logs = ROOT / ".pytest_cache"
    logs.mkdir(exist_ok=True)
    code = side_by_side({
        "app, e2e, reliability, snapshots": [*pytest, "-n", "3", "-m", f"not {WALKS}", "tests/app", "tests/e2e",
                                             "tests/reliability", "tests/snapshots", "tests/bench", "tests/gpu"],
        "lesson walks": [*pytest, "-n", "0", "-m", WALKS, "tests/e2e"],
    }, logs)
    print(f"== all tiers: {'ok' if code == 0 else 'FAILED'} in {time.monotonic() - start:.0f} s", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
