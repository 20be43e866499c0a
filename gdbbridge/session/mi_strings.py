"""GDB/MI c-strings unescaped in time linear in their length.

pygdbmi's escape reader (``pygdbmi.gdbescapes``) searches with a pattern that starts with a lazy
``.*?``: where no escape and no quote follows (a console record without its closing ``\\n``, as
gdb flushes when it is stopped in the middle of ``print``, or a c-string cut off at the end of a
line), every start position scans to the end of the text, in one call into the regular
expression engine that holds the GIL: a 30 KB string took 22 s, a console record of megabytes
froze the whole app. Here the search is for a backslash or a quote only, so each position costs
one comparison. What it accepts reads as pygdbmi reads it (the same escapes, octal runs decoded
as UTF-8 and kept escaped when they are not UTF-8); errors are short :class:`ValueError`
messages, never the whole text.
"""

from __future__ import annotations

import re

_ESCAPE_OR_QUOTE = re.compile(r'\\(?:(?P<octal>[0-7]{3}(?:\\[0-7]{3})*)|(?P<char>.))|(?P<quote>")')
"""An escape (an octal run, or one character other than a line break) or a quote."""

_CHARS = {"'": "'", "\\": "\\", "a": "\a", "b": "\b", "e": "\033", "f": "\f", "n": "\n", "r": "\r",
          "t": "\t", '"': '"'}


def _read(text: str, start: int, closing: bool) -> tuple[str, int]:
    parts: list[str] = []
    at = start
    for match in _ESCAPE_OR_QUOTE.finditer(text, start):
        parts.append(text[at:match.start()])
        at = match.end()
        if match["quote"] is not None:
            if not closing:
                raise ValueError(f"an unescaped quote at {match.start()}")
            return "".join(parts), at
        octal = match["octal"]
        if octal is not None:
            digits = octal.replace("\\", "")
            codes = [int(digits[i:i + 3], 8) for i in range(0, len(digits), 3)]
            if max(codes) > 255:
                raise ValueError(f"an octal escape above \\377 at {match.start()}")
            try:
                parts.append(bytes(codes).decode("utf-8"))
            except UnicodeDecodeError:
                parts.append("\\" + octal)
        elif match["char"] in _CHARS:
            parts.append(_CHARS[match["char"]])
        else:
            raise ValueError(f"an invalid escape character {match['char']!r} at {match.start()}")
    if closing:
        raise ValueError("the closing quote is missing")
    parts.append(text[at:])
    return "".join(parts), -1


def unescape(text: str) -> str:
    """The value of a c-string's inside (``text`` has no quotes around it, none unescaped in it)."""
    return _read(text, 0, closing=False)[0]


def advance_past_string(text: str, start: int) -> tuple[str, int]:
    """The c-string whose opening quote is just before ``text[start]``, and the index after its
    closing quote."""
    return _read(text, start, closing=True)
