"""MI lines as cuda-gdb printed them, and a guard against a parser that never returns."""

from __future__ import annotations

import json
import signal
from contextlib import contextmanager

from .paths import TRANSCRIPTS

REAL = [
    json.loads(text)["line"]
    for path in sorted(TRANSCRIPTS.glob("*.jsonl"))
    for text in path.read_text().splitlines()
    if json.loads(text)["dir"] == "out"
]
"""Every line cuda-gdb printed in the reference recordings."""


class Hang(BaseException):
    """Raised by the alarm; a BaseException so that parse_line's own ``except Exception`` cannot hide it."""


@contextmanager
def no_hang(seconds: int = 10):
    """Fail instead of hanging (pygdbmi loops forever on some truncated records); generous, as
    the CI machine may be loaded."""

    def alarm(signum, frame):
        raise Hang("parse_line did not return")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
