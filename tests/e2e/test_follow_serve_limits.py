"""The limits of ``cudatui follow --serve`` (issue 34), against the real server on a real port and a
real recording: ``--max-viewers`` turns one browser too many away with the page that says the
class is full while the first keeps its follower; the token is checked on the terminal's
websocket; nothing is ever downloaded, not even with the token."""

from __future__ import annotations

import asyncio
import importlib.util
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from tests.support.net import free_port, listening
from tests.support.paths import RECORDED, ROOT
from tests.support.wait import until

pytestmark = pytest.mark.skipif(importlib.util.find_spec("textual_serve") is None,
                                reason="needs textual-serve (the serve extra)")

RECORDING = RECORDED / "own" / "ui_cupy_oob.jsonl"




def text(said: bytes | bytearray) -> str:
    """What the terminal stream shows, its escapes removed (as the browser test reads its page)."""
    return re.sub(r"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]", "", said.decode("utf-8", "replace"))


def page_status(url: str) -> int:
    """The HTTP status the server answers ``url`` with (a plain blocking GET: the server is
    another process)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as page:
            return int(page.status)
    except urllib.error.HTTPError as refused:
        return refused.code


def printed_url(server: subprocess.Popen[str]) -> str:
    assert server.stdout is not None
    for line in server.stdout:
        if (found := re.search(r"http://127\.0\.0\.1:\d+/\?token=\S+", line)) is not None:
            return found.group(0)
    raise AssertionError("the server ended without printing its URL")


async def test_one_viewer_too_many_gets_the_full_page_and_nothing_downloads() -> None:
    import aiohttp

    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "cudatui", "follow", "--serve", f"127.0.0.1:{port}",
                               "--max-viewers", "1", str(RECORDING)], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        token = printed_url(server).split("token=", 1)[1]
        base = f"http://127.0.0.1:{port}"
        await until(lambda: listening(port), 60, why="the server listening (it prints the URL as it starts)")
        async with aiohttp.ClientSession() as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(f"{base}/ws?token=wrong")
            assert refused.value.status == 403

            first = await client.ws_connect(f"{base}/ws?token={token}&width=100&height=30")
            said = bytearray()

            async def read() -> None:
                async for message in first:
                    if message.type == aiohttp.WSMsgType.BINARY:
                        said.extend(message.data)

            reader = asyncio.ensure_future(read())
            await until(lambda: "gather" in text(said), 60, why=lambda: f"the follower on its screen: {text(said)[-2000:]!r}")
            async with client.get(f"{base}/?token={token}") as second:
                assert second.status == 503 and "--max-viewers" in await second.text()
            async with client.get(f"{base}/download/x?token={token}") as download:
                assert download.status == 403
            assert not first.closed, "the first viewer keeps its follower"
            await first.close()
            reader.cancel()

            await until(lambda: page_status(f"{base}/?token={token}") == 200, 60,
                        why="the server to count the closed websocket out (the page served again)")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
