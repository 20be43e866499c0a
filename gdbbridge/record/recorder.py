"""Session transcripts: one JSON object per line, flushed line by line.

Format (version 1, the one of shared/reference/transcripts plus a header)::

    {"dir": "meta", "format": "cudatui-transcript", "version": 1, "argv": [...], "t": 0}
    {"t": 0.17, "dir": "in", "line": "101-break-insert -f reduce_racy"}
    {"t": 0.18, "dir": "out", "line": "101^done,bkpt={...}"}
    {"t": 0.18, "dir": "mark", "line": "rtt -break-insert result=0.0012"}
    {"t": 2.50, "dir": "program", "line": "text the debuggee wrote to its tty"}

A transcript cut off by a crash is still valid up to its last complete line.
"""

from __future__ import annotations

import json
import os
import time
from typing import Sequence

FORMAT = "cudatui-transcript"
VERSION = 1


class Recorder:
    """Writes a transcript incrementally; the file is created private (0600)."""

    def __init__(self, path: str | os.PathLike[str], argv: Sequence[str]) -> None:
        fd = os.open(os.fspath(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        self._file = os.fdopen(fd, "w", encoding="utf-8")
        self._t0 = time.monotonic()
        self._write({"t": 0.0, "dir": "meta", "format": FORMAT, "version": VERSION, "argv": list(argv)})

    def write(self, direction: str, line: str) -> None:
        self._write({"t": round(time.monotonic() - self._t0, 4), "dir": direction, "line": line})

    def _write(self, obj: dict[str, object]) -> None:
        if self._file.closed:
            return
        self._file.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
