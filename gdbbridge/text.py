"""Make a program's terminal output harmless to show inside another terminal UI.

A debuggee writes whatever it likes to its pty: colour codes, cursor movement, window-title
OSC sequences, bells, backspaces, bidi overrides. Shown raw inside the TUI they would move the
cursor, retitle the window or reorder text. :func:`sanitize` keeps the printable text and the
line structure and removes or makes visible everything else; :class:`TerminalFilter` does the
same for a stream cut into arbitrary chunks (an escape sequence may be split between two).
"""

from __future__ import annotations

import re

_ESCAPE = re.compile(
    r"""
    \x1b\[[0-?]*[ -/]*[@-~]                      # CSI: colours, cursor movement, erase
    | \x1b\][^\x07\x1b]*(?:\x07|\x1b\\)          # OSC: window title, hyperlinks, clipboard
    | \x1b[P^_X][^\x1b]*\x1b\\                   # DCS, PM, APC, SOS strings
    | \x1b[ -/]*[0-~]                            # two/three-byte escapes (charset, keypad)
    | \x9b[0-?]*[ -/]*[@-~]                      # 8-bit CSI
    | \x9d[^\x07\x9c\x9d]*(?:\x07|\x9c)          # 8-bit OSC (body stops at the next one: linear)
    """,
    re.VERBOSE,
)
_INCOMPLETE_TAIL = re.compile(r"(?:\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[P^_X][^\x1b]*|[ -/]*)?|\x9b[0-?]*[ -/]*|\x9d[^\x07\x9c\x9d]*)\Z")
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))
MAX_TAIL = 256
"""An unfinished escape sequence longer than this is shown, not held back."""


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return "^" + chr(code + 0x40)
    if code == 0x7F:
        return "^?"
    return "\ufffd"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def sanitize(text: str, tab_size: int = 8) -> str:
    """Printable text with its newlines: escape sequences removed, CR/LF normalised, tabs
    expanded, other control characters shown as ``^X`` (C1 as U+FFFD), bidi controls dropped."""
    text = _ESCAPE.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub(_visible, text).translate(_BIDI)
    if "\t" in text:
        text = "\n".join(line.expandtabs(tab_size) for line in text.split("\n"))
    return text


class TerminalFilter:
    """Sanitises a stream chunk by chunk, holding back an escape sequence cut at a chunk end."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, chunk: str) -> str:
        """Sanitised text of ``chunk`` (plus what was held back), minus an unfinished escape."""
        text = self._pending + chunk
        self._pending = ""
        tail = _INCOMPLETE_TAIL.search(text)
        if tail and tail.group() and len(tail.group()) <= MAX_TAIL:
            self._pending = tail.group()
            text = text[: tail.start()]
        if text.endswith("\r"):
            self._pending = "\r" + self._pending
            text = text[:-1]
        return sanitize(text)

    def flush(self) -> str:
        """Whatever is held back, sanitised (at the end of the stream)."""
        text, self._pending = self._pending, ""
        return sanitize(text)
