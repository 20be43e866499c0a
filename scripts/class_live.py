"""A class on the GPU box (issue 34): an instructor's live cudatui session on a lesson kernel, recorded
with ``--record``; a student in a terminal who sat down BEFORE the instructor started (the waiting
screen, then the first stop); a second student in a terminal who joins at the stop; and a browser
student through ``cudatui follow --serve`` (the terminal stream a browser's xterm.js would draw,
read over the same websocket). The instructor steps twice; every screen is saved as text with the
time it took to show the instructor's new line, and the instructor's status bar count is checked.

Usage (GPU box, repository root; tmux and the serve extra installed)::

    python scripts/class_live.py OUT_DIR [LESSON [BREAKPOINT]]     # divergence divergence.cu:22
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
CUDATUI = f"{sys.executable} -m cudatui"
ESCAPES = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True).stdout


def screen(name: str) -> str:
    return tmux("capture-pane", "-p", "-t", name)


def wait(what, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if what():
            return True
        time.sleep(0.05)
    return False


def line_of(text: str) -> str | None:
    found = re.search(r"\.(?:cu|c):(\d+)", text)
    return next((g for g in found.groups() if g), None) if found else None


async def browser(port: int, token: str, seen: list[tuple[float, str]]) -> None:
    import aiohttp

    url = f"http://127.0.0.1:{port}/ws?token={token}&width=120&height=36"
    async with aiohttp.ClientSession() as client, client.ws_connect(url) as ws:
        said = ""
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                said = (said + ESCAPES.sub("", message.data.decode("utf-8", "replace")))[-200_000:]
                seen.append((time.monotonic(), said[-20_000:]))
                del seen[:-2]


def main(out: Path, lesson: str, breakpoint: str) -> int:
    out.mkdir(parents=True, exist_ok=True)
    record = out / "class.jsonl"
    record.unlink(missing_ok=True)
    with open(out / "class_screens.txt", "w") as log:
        return run_class(out, record, lesson, breakpoint, log)


def browser_shows(seen: list[tuple[float, str]], text: str) -> bool:
    return bool(seen) and text in seen[-1][1]


def run_class(out: Path, record: Path, lesson: str, breakpoint: str, log: TextIO) -> int:

    def snap(name: str, why: str) -> str:
        text = screen(name)
        log.write(f"=== {name}: {why}\n{text}\n")
        log.flush()
        return text

    subprocess.run(["python3", "-m", "cudatui.kernels.build", lesson], cwd=ROOT, capture_output=True)
    tmux("new-session", "-d", "-s", "early", "-x", "80", "-y", "24", f"cd {ROOT} && {CUDATUI} follow {record}")
    wait(lambda: "wait" in screen("early").lower(), 30)
    snap("early", "a student before the instructor (80x24)")
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "cudatui", "follow", "--serve", f"127.0.0.1:{port}", str(record)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert server.stdout is not None
    token = ""
    for line in server.stdout:
        if (found := re.search(r"token=(\S+)", line)) is not None:
            token = found.group(1)
            break
    target = os.environ.get("CLASS_TARGET") or f"-b '{breakpoint}' kernels/demos/{lesson}.py"  # CLASS_TARGET: a dry run
    tmux("new-session", "-d", "-s", "teacher", "-x", "120", "-y", "36", f"cd {ROOT} && {CUDATUI} --record {record} {target}")
    started = time.monotonic()
    ok = wait(lambda: "stopped" in screen("teacher"), 180)
    print(f"instructor's first stop: {'yes' if ok else 'NO'} after {time.monotonic() - started:.1f} s", flush=True)
    snap("teacher", "the instructor's first stop (120x36)")
    wait(lambda: line_of(screen("early")) is not None, 30)
    snap("early", "the early student at the first stop")
    tmux("new-session", "-d", "-s", "late", "-x", "120", "-y", "36", f"cd {ROOT} && {CUDATUI} follow {record}")
    wait(lambda: line_of(screen("late")) is not None, 60)
    snap("late", "a student who joined at the stop (120x36)")
    seen: list[tuple[float, str]] = []
    listening = wait(lambda: port_open(port), 30)
    threading.Thread(target=asyncio.run, args=(browser(port, token, seen),), daemon=True).start()
    shown = wait(lambda: browser_shows(seen, "FOLLOW"), 60)
    print(f"browser: server listening {listening}, the follower on its page {shown}", flush=True)
    wait(lambda: "3 following" in screen("teacher"), 20)
    bar = [row for row in screen("teacher").splitlines() if "following" in row]
    print("instructor's status bar:", bar[0].strip() if bar else "NO COUNT", flush=True)
    for step in range(2):
        before = line_of(screen("teacher"))
        tmux("send-keys", "-t", "teacher", "n")
        t0 = time.monotonic()
        wait(lambda: line_of(screen("teacher")) not in (None, before) and "stopped" in screen("teacher"), 60)
        shown = time.monotonic() - t0
        now = line_of(screen("teacher"))
        lags = []
        for name in ("early", "late"):
            wait(lambda name=name: line_of(screen(name)) == now, 30)
            lags.append(f"{name} {time.monotonic() - t0 - shown:+.2f} s")
        there = wait(lambda: browser_shows(seen, f":{now}"), 30)
        lags.append(f"browser {'shows' if there else 'does NOT show'} line {now} {time.monotonic() - t0 - shown:+.2f} s")
        print(f"step {step + 1}: instructor at line {now} after {shown:.2f} s; followers: {', '.join(lags)}", flush=True)
        for name in ("teacher", "early", "late"):
            snap(name, f"after step {step + 1}")
        log.write(f"=== browser after step {step + 1}\n{seen[-1][1][-6000:] if seen else ''}\n")
    tmux("send-keys", "-t", "teacher", "C-q")
    wait(lambda: "ended" in screen("late"), 30)
    snap("late", "after the instructor quit")
    server.send_signal(signal.SIGINT)  # as ctrl+c: the server ends its browsers' followers
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
    for name in ("teacher", "early", "late"):
        tmux("kill-session", "-t", name)
    print(f"screens in {out / 'class_screens.txt'}", flush=True)
    return 0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(Path(args[0]), args[1] if len(args) > 1 else "divergence", args[2] if len(args) > 2 else "divergence.cu:22"))
