"""Source files as a UI shows them: the one reader of the source, SASS and shared-memory panes.

A source file is the debuggee's own text, and a hostile one holds escape sequences in its
lines: it is read as UTF-8 (bad bytes replaced) and cleaned (:func:`~cudatui.gdbbridge.text.clean`)
before any pane sees it, as everything the Debugger hands out is.
"""

from __future__ import annotations

import os
from pathlib import Path

from cudatui.gdbbridge.text import clean


def read_source(path: str | os.PathLike[str]) -> str:
    """The text of the file ``path``, cleaned; OSError when it cannot be read."""
    return clean(Path(path).read_text(encoding="utf-8", errors="replace"))
