"""Local ports for the servers the tests start (``cudatui follow --serve``)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A port nobody listens on now, on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def listening(port: int) -> bool:
    """Whether a server accepts connections on 127.0.0.1:``port``."""
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0
