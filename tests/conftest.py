"""Shared test setup: the ``gpu`` marker is skipped unless a usable NVIDIA GPU is present, and
the fixtures several test folders use (the stand-in compute-sanitizer, the built lessons, the
C programs compiled for the debugger tests). Helpers are in tests/support/."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import pytest
from textual import constants as textual_constants

pytest.register_assert_rewrite("tests.support")  # the helpers' asserts explain themselves too

from tests.support.decoys import Decoy, start_decoy  # noqa: E402
from tests.support.paths import FIXTURES, ROOT  # noqa: E402
from tests.support.programs import FOREVER, PANES, STEPS, compile_c  # noqa: E402

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

os.environ["ESCDELAY"] = "1000"
"""How long (ms) Textual waits for the rest of an escape sequence in a real terminal (tmux, a
pseudo-terminal) before it takes the ESC as the escape key; its 100 ms default splits a mouse
report in two under a loaded CI machine (four workers on two cores): a lone escape, then the
report's characters as keys. The apps the tests start inherit it (tmux's server included)."""


@lru_cache(maxsize=1)
def gpu_available() -> bool:
    if os.environ.get("CUDATUI_NO_GPU"):
        return False
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout


def pytest_configure(config: pytest.Config) -> None:
    """The tests run as a command typed at a terminal does, whoever started them: with SIGINT's
    default action. A shell that starts a command in the background without job control
    (``python -m tests &`` in a script or a CI step) starts it with SIGINT ignored, which every
    process a test starts inherits; cudatui then rightly keeps it ignored, and the tests that
    send it ctrl+c saw none (they failed in such runs only, on every worker)."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``long`` first, the longest (``long(N)``: N times a lesson walk, 1 if not
    given) before the others (a stable sort: the rest keep their order), so that the xdist workers
    start them first and the short ones fill the end of the run; ``gpu`` tests are skipped
    without a GPU."""

    def weight(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return 0 if mark is None else mark.args[0] if mark.args else 1

    items.sort(key=weight, reverse=True)
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs an NVIDIA GPU (nvidia-smi -L found none)")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


def signal_dispositions() -> tuple[object, str]:
    """SIGINT's Python handler, and the signals this process blocks and ignores (``/proc``): what
    every process a test starts inherits."""
    status = Path("/proc/self/status").read_text().splitlines()
    return signal.getsignal(signal.SIGINT), " ".join(line for line in status if line.startswith(("SigBlk", "SigIgn")))


@pytest.fixture(autouse=True)
def signals_kept() -> Iterator[None]:
    """A test that leaves the test process's signals changed (SIGINT ignored, say) fails, and they
    are put back (SIGINT's handler): every later test's subprocesses would inherit them."""
    before = signal_dispositions()
    yield
    after = signal_dispositions()
    if after != before:
        signal.signal(signal.SIGINT, before[0])  # type: ignore[arg-type]
        pytest.fail(f"the test changed the test process's signals: {before} -> {after}")


@pytest.fixture(autouse=True)
def no_animations(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps started in the tests' own process do not animate. Textual 8.2.8 stops its animator
    when an app exits, but a tab's underline animation, scheduled 20 ms after a tab is shown, can
    begin after that and never end; a Pilot key press that ended the app (``q``) then waited for
    it forever: CI ran out of its 90 minutes, a full run here hung in 2 tests and 2 of 7 runs of
    three app test files hung (the worker idle in epoll, the app gone, its animator holding the
    underline); 0 of 12 runs since. cudatui's apps do not animate unless TEXTUAL_ANIMATIONS is
    set (tui/apps/toasts.py): this keeps the tests' apps still where the variable is set."""
    monkeypatch.setattr(textual_constants, "TEXTUAL_ANIMATIONS", "none")


@pytest.fixture(autouse=True)
def config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's own cudatui config directory (the saved layout), never the user's."""
    path = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("CUDATUI_CONFIG_DIR", str(path))
    return path


@pytest.fixture
def fake_sanitizer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The stand-in that replays recorded real reports (fixtures/sanitizer/fake_compute_sanitizer.py,
    configured by FAKE_SANITIZER_* variables) as `compute-sanitizer`, first on PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "compute-sanitizer"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FIXTURES / "sanitizer" / "fake_compute_sanitizer.py"}" "$@"\n')
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    return monkeypatch


@pytest.fixture(scope="session")
def built_lessons() -> None:
    """Every lesson built first (GPU tests), so no tool has to trace nvcc; skips without the CUDA tools."""
    for tool in ("nvcc", "compute-sanitizer", "cuda-gdb"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not on PATH")
    done = subprocess.run([sys.executable, "-m", "cudatui.kernels.build", "--all"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def steps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/c/app/steps.c built with gcc -g -O0, in a directory of its own (one per module)."""
    return compile_c(STEPS, tmp_path_factory.mktemp("steps") / "steps")


@pytest.fixture(scope="module")
def forever(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/c/bridge/forever.c built with gcc -g -O0 (prints ``looping``, never stops)."""
    return compile_c(FOREVER, tmp_path_factory.mktemp("forever") / "forever")


@pytest.fixture(scope="module")
def panes_program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tests/fixtures/c/app/panes.c built with gcc -g -O0 (the pane tests' program)."""
    return compile_c(PANES, tmp_path_factory.mktemp("panes") / "panes")


@pytest.fixture
def decoy(tmp_path: Path) -> Iterator[Decoy]:
    """An unrelated process in its own session (tests/support/decoys.py), ended after the test."""
    found = start_decoy(tmp_path)
    yield found
    found.end()
