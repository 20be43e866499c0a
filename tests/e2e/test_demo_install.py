"""End to end: ``pip install`` cudatui into a fresh venv, then ``cudatui demo race --replay`` in tmux.

The package is installed from a copy of the source tree (so the build leaves nothing in the
working tree); the recording, the ``.cu`` shown and the demo code all come from the install.
What the screen must show is read from the packaged recording: its first stop's source line,
a local's value there, and its recorded path, which the test types with send-keys.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudatui.gdbbridge.session.mi import parse_line
from cudatui.gdbbridge.record.transcript import load
from cudatui.tui.plans.demo_plan import RECORDINGS_DIR, read_recording
from tests.support.once import built_once
from tests.support.paths import ROOT
from tests.support.processes import wait_ended
from tests.support.recorded_path import path_of
from tests.support.tmux import TmuxServer
from tests.support.tmux_path import ScreenPath


pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

RECORDING = RECORDINGS_DIR / "race.jsonl.gz"
COPY_IGNORE = shutil.ignore_patterns(".git", "tests", "bench", "screenshots", "build", "*.egg-info", "__pycache__",
                                     ".venv*", ".pytest_cache", "shared")


@pytest.fixture(scope="session")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with cudatui installed by plain ``pip install``, once per test run (the
    workers share it: tests/support/once.py)."""
    return built_once(tmp_path_factory, "demo-venv", install) / "venv"


def install(base: Path) -> None:
    source = base / "src"
    shutil.copytree(ROOT, source, ignore=COPY_IGNORE)
    env_dir = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=120)
    pip = [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    done = subprocess.run([*pip, str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_install_adds_only_the_cudatui_package(venv: Path) -> None:
    """The wheel installs one import package, ``cudatui`` (the Hub's ``kernels`` keeps its name)."""
    site = next((venv / "lib").glob("python3*/site-packages"))
    dist = next(site.glob("cudatui-*.dist-info"))
    tops = {Path(row.split(",")[0]).parts[0] for row in (dist / "RECORD").read_text().splitlines() if row}
    assert tops - {".."} == {"cudatui", dist.name}
    assert not any((site / name).exists() for name in ("tui", "gdbbridge", "kernels"))
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "cudatui", "--version"], cwd=venv,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr


def test_install_ships_the_chinese_catalogue_and_no_pygdbmi(venv: Path) -> None:
    """The compiled gettext catalogue is in the wheel and the installed cudatui reads it; pygdbmi,
    a test-only dependency, is not installed (the demo below replays without it)."""
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert (site / "cudatui" / "gdbbridge" / "i18n" / "locale" / "zh" / "LC_MESSAGES" / "cudatui.mo").is_file()
    code = ("import importlib.util, cudatui.gdbbridge.i18n as i18n; i18n.set_language('zh');"
            "print(i18n.__file__); print(i18n.tr('Quit')); print(importlib.util.find_spec('pygdbmi'))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=venv, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    where, quit_text, pygdbmi = done.stdout.splitlines()
    assert Path(where).is_relative_to(site) and quit_text == "退出" and pygdbmi == "None", done.stdout


def first_stop_facts() -> tuple[str, str, str]:
    """The first stop's file:line, its source text, and one local as ``name value``."""
    transcript = load(str(RECORDING))
    where = local = None
    for exchange in transcript.exchanges:
        for entry in exchange.output:
            payload = (parse_line(entry.line).payload if entry.dir == "out" else None) or {}
            frame = payload.get("frame") if entry.line.startswith("*stopped") else None
            if where is None and isinstance(frame, dict) and frame.get("line"):
                where = (Path(frame["file"]).name, int(frame["line"]))
            variables = payload.get("variables") if where is not None else None
            if local is None and isinstance(variables, list):
                local = next(f"{v['name']} {v['value']}" for v in variables if v.get("value", "").isdigit())
        if where and local:
            break
    assert where is not None and local is not None
    text = (ROOT / "kernels" / where[0]).read_text().splitlines()[where[1] - 1].strip()
    return f"{where[0]}:{where[1]}", text, local


class Tmux(TmuxServer):
    """A private tmux server (own socket) running one command in a 160x48 window."""

    def keys(self, *keys: str) -> None:
        self("send-keys", "-t", "t", *keys)


def test_installed_demo_replays_race_in_a_real_terminal(venv: Path, tmp_path: Path) -> None:
    info = read_recording(RECORDING)
    where, line_text, local = first_stop_facts()
    site = next((venv / "lib").glob("python3*/site-packages"))
    assert (site / "cudatui" / "kernels" / "recordings" / "race.jsonl.gz").is_file()
    tmux = Tmux(tmp_path / "tmux.sock")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = f"{venv / 'bin'}:/usr/bin:/bin"
    command = f"unset COLUMNS LINES; cd {tmp_path} && exec cudatui demo race --replay"
    subprocess.run([*tmux.base, "new-session", "-d", "-s", "t", "-x", "160", "-y", "48", "-e", "TERM=xterm-256color",
                    command], check=True, env=env, timeout=20)
    pid = int(tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
    try:
        screen = tmux.wait_for_all("REPLAY", "stopped", line_text, timeout=60)
        assert info.label in screen and where in screen
        tmux.wait_for_all(local)
        tmux.keys("f")  # off the recorded path: the notice in the status bar, where the provenance was
        tmux.wait_for_all("this step is not in the recording")
        walker = ScreenPath(tmux, wide=True)
        for step in path_of(RECORDING):  # the recorded path, key by key: each recorded stop is shown
            walker.do(step)
            walker.check(step)
        tmux.keys("q")  # back to the lesson picker, then q quits
        tmux.wait_for_all("pick a lesson")
        tmux.keys("q")
        wait_ended(pid, "cudatui demo to exit after q in the picker")
    finally:
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
