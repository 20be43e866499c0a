"""Following from a browser: an instructor's cudatui on GNU gdb with ``--record`` (in tmux), the
server of ``cudatui follow --serve`` on the file, and Debian's chromium (headless, driven by
Playwright with the system browser) on the printed URL. The page shows the instructor's line,
then their next one after they step; a wrong token gets a 403 page and no session."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.net import free_port
from tests.support.paths import ROOT
from tests.support.programs import BREAK_LINE, STEPS, compile_c
from tests.support.tmux import TmuxServer
from tests.support.wait import wait_until

CHROMIUM = "/usr/bin/chromium"
pytestmark = [
    pytest.mark.skipif(not all(shutil.which(tool) for tool in ("tmux", "gdb", "gcc")), reason="needs tmux, gdb and gcc"),
    pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK), reason="needs Debian's chromium (apt-get install chromium)"),
    pytest.mark.skipif(importlib.util.find_spec("playwright") is None, reason="needs playwright (the test extra)"),
    pytest.mark.skipif(importlib.util.find_spec("textual_serve") is None, reason="needs textual-serve (the serve extra)"),
]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
WAIT_MS = 60_000
TAP = r"""
(() => {
  const Real = window.WebSocket;
  window.__screen = "";
  const decoder = new TextDecoder();
  window.WebSocket = function (...args) {
    const socket = new Real(...args);
    socket.addEventListener("message", (e) => {
      if (typeof e.data !== "string") {
        window.__screen += decoder.decode(new Uint8Array(e.data), {stream: true})
          .replace(/\x1b\[[0-9;?<>=]*[ -\/]*[@-~]/g, "").replace(/\x1b[()][0-9A-Za-z]/g, "");
      }
    });
    return socket;
  };
  window.WebSocket.prototype = Real.prototype;
})();
"""
"""The page draws the terminal on a canvas (xterm.js): what the server sent it, escapes removed,
is the text the test reads (``window.__screen``)."""



def children(pid: int) -> list[str]:
    """The pids of ``pid``'s child processes."""
    return subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()


def at_line(text: str, line: int) -> bool:
    return f"▶{line}" in text.replace(" ", "").replace("\xa0", "")


def test_a_browser_follows_the_instructor_and_a_wrong_token_gets_nothing(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    compile_c(STEPS, tmp_path / "steps")
    tmux = TmuxServer(tmp_path / "tmux.sock")
    cudatui = f"cd {tmp_path} && PYTHONPATH={ROOT} exec {sys.executable} -m cudatui"
    tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "-e", "TERM=xterm-256color",
         f"{cudatui} --record class.jsonl -b steps.c:{BREAK_LINE} --debugger gdb ./steps")
    log = tmp_path / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with open(log, "w") as out:
        server = subprocess.Popen([sys.executable, "-m", "cudatui", "follow", "--serve", f"127.0.0.1:{free_port()}",
                                   "--max-viewers", "2", "class.jsonl"], cwd=tmp_path, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        tmux.wait_for_line("total = square(3);")
        wait_until(lambda: "Open: http" in log.read_text(), 30, "the server's URL")
        url = re.search(r"Open: (\S+)", log.read_text()).group(1)  # type: ignore[union-attr]
        assert url.startswith("http://127.0.0.1:") and "?token=" in url

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": 1400, "height": 900})
            try:
                page = browser.new_page()
                page.add_init_script(TAP)
                wrong = page.goto(url.replace("?token=", "?token=x"))
                assert wrong is not None and wrong.status == 403
                assert "not valid" in page.inner_text("body")
                assert not children(server.pid), "a wrong token started a follower"

                page.goto(url)
                page.wait_for_function("window.__screen.includes('total = square(3);')", timeout=WAIT_MS)
                page.wait_for_function(f"window.__screen.replace(/\\s/g, '').includes('▶{BREAK_LINE}')", timeout=WAIT_MS)
                page.evaluate("window.__screen = ''")
                tmux("send-keys", "-t", "t", "n")
                page.wait_for_function(f"window.__screen.replace(/\\s/g, '').includes('▶{BREAK_LINE + 1}')",
                                       timeout=WAIT_MS)
                assert at_line(page.evaluate("window.__screen"), BREAK_LINE + 1)
            finally:
                browser.close()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(20)
        subprocess.run([*tmux.base, "kill-server"], capture_output=True, timeout=20)
