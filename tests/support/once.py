"""What is expensive to build, built once per test run and shared by every pytest-xdist worker
(pytest-xdist's "session fixtures that run only once" recipe): a session fixture runs once per
worker, so a venv that four workers each installed cost four installs.

The folder lives under the run's base temporary folder, the parent of every worker's own (the
folder of the run itself without xdist); the first worker to ask builds it while holding a lock,
the others wait for the lock (a bounded wait) and find it built. A build that failed leaves no
mark: the next worker to ask builds it again, and fails with its own message.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from .wait import wait_until

BUILD_WAIT = 600.0
"""How long a worker waits for another to finish building (a pip install on a loaded machine)."""


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this run shares (the run's own temporary folder)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """``run folder / name``, made by ``build(folder)`` (given an empty folder) the first time any
    worker of this run asks for it."""
    shared = run_folder(tmp_path_factory)
    folder, done = shared / name, shared / f"{name}.built"
    with open(shared / f"{name}.lock", "w") as lock:
        wait_until(lambda: _locked(lock.fileno()), BUILD_WAIT, f"another worker to build {name}", every=0.2)
        try:
            if not done.exists():
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                build(folder)
                done.touch()
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
    return folder


def _locked(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
