"""``cudatui follow --serve [HOST:]PORT FILE``: each browser that opens the URL gets its own
read-only follower of FILE, through textual-serve (the Textual team's web server).

textual-serve's :class:`Server` runs one fixed shell command per browser session (here
``python -m cudatui follow FILE``, built once from the command line, quoted; nothing of a
request goes into it but the terminal's width and height, which it reads as integers) and
relays the terminal. It has no hook for who may connect, so :class:`FollowServer` adds an
aiohttp middleware to the application it builds (``Server._make_app``, textual-serve 1.1.3,
pinned exactly in pyproject.toml; the one private name used):

- every page and the websocket need the random token of the printed URL (``?token=``); the
  page sets it as a same-site cookie, because textual-serve's page opens its websocket at
  ``/ws?width=..&height=..`` (no room for it in the URL). A wrong or missing token: a 403 page,
  no session;
- at most ``max_viewers`` websockets at once; one more gets a page saying the class is full;
- downloads (textual-serve's ``/download/``) are refused: a follower offers none.

What a browser sends is keys to its own follower, which is read-only (the Debugger refuses
every command that would change the session) and reads no file but FILE and the sources.
"""

from __future__ import annotations

import hmac
import os
import secrets
import shlex
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from textual_serve.server import Server
from cudatui.tui.textual_compat import ServeHooks

COOKIE = "cudatui_follow_token"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

FORBIDDEN = """<!doctype html><title>cudatui follow: no access</title>
<h1>403: this link is not valid</h1>
<p>Open the exact URL the instructor gave (it ends with <code>?token=...</code>).</p>"""

FULL = """<!doctype html><title>cudatui follow: the class is full</title>
<h1>The class is full</h1>
<p>{viewers} people are following this session already (the most the instructor allowed: <code>--max-viewers</code>).
Try again when someone leaves.</p>"""


def parse_address(text: str) -> tuple[str, int]:
    """``8000`` -> (127.0.0.1, 8000); ``0.0.0.0:8000`` -> (0.0.0.0, 8000); ValueError when it is neither."""
    host, _, port = text.rpartition(":")
    number = int(port)
    if not 0 < number < 65536:
        raise ValueError(f"port {number} is not between 1 and 65535")
    return (host.strip("[]") or "127.0.0.1", number)


class FollowServer(ServeHooks, Server):
    """textual-serve's Server for followers of one recording (see the module docstring)."""

    def __init__(self, path: str, host: str, port: int, *, max_viewers: int = 60, token: str | None = None,
                 source_dirs: tuple[str, ...] = ()) -> None:
        path = os.path.abspath(path)
        argv = [sys.executable, "-m", "cudatui", "follow", path]
        for folder in source_dirs:
            argv += ["--source-dir", folder]
        super().__init__(shlex.join(argv), host=host, port=port, title=f"cudatui follow {os.path.basename(path)}")
        self.path = path
        self.token = token or secrets.token_urlsafe(24)
        self.max_viewers = max_viewers
        self.viewers = 0

    @property
    def url(self) -> str:
        """What the instructor hands out: the page with its token."""
        return f"{self.public_url}/?token={self.token}"

    def middlewares(self) -> list[Any]:
        return [self._guard]

    def _allowed(self, request: web.Request) -> bool:
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        return hmac.compare_digest(given.encode(), self.token.encode())

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path.startswith("/static/"):  # textual-serve's own scripts, fonts and styles
            return await handler(request)
        if not self._allowed(request) or request.path.startswith("/download/"):
            return web.Response(status=403, text=FORBIDDEN, content_type="text/html")
        if self.viewers >= self.max_viewers and request.path in ("/", "/ws"):
            return web.Response(status=503, text=FULL.format(viewers=self.viewers), content_type="text/html")
        if request.path == "/ws":
            self.viewers += 1
            try:
                return await handler(request)
            finally:
                self.viewers -= 1
        response = await handler(request)
        if request.path == "/":
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict")
        return response

    async def on_startup(self, app: web.Application) -> None:
        self.console.print(f"cudatui follow: serving {self.path} to browsers, at most {self.max_viewers} at once.")
        self.console.print(f"Open: {self.url}", soft_wrap=True, highlight=False)
        self.console.print("Ctrl+C stops the server (and every browser's follower).")


def serve(path: str, address: str, *, max_viewers: int, source_dirs: tuple[str, ...] = (), **_: Any) -> int:
    host, port = parse_address(address)
    FollowServer(path, host, port, max_viewers=max_viewers, source_dirs=source_dirs).serve()
    return 0
