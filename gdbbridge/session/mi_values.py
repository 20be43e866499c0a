"""A total parser of GDB/MI output records, giving what ``pygdbmi.gdbmiparser.parse_response``
gives for every line gdb really prints (tests/test_mi_values.py compares them over every
recorded line in the repository).

pygdbmi's own reader loops forever when a value or a list reaches the end of the line unclosed
(``…args=[{name="out",value@"0x7ffc"}]…``): its loops wait for a character that never comes.
Here every step consumes at least one character and the end of the line ends every loop, so a
line of any content is parsed (or refused with :class:`MISyntaxError`) in time linear in its
length; nesting deeper than Python's recursion limit is refused too. Strings are unescaped by
:mod:`cudatui.gdbbridge.session.mi_strings` (pygdbmi's escape reader is quadratic where no escape
follows: a console record of megabytes without its ``\\n`` never ended).
"""

from __future__ import annotations

import re
from typing import Any

from cudatui.gdbbridge.session.mi_strings import advance_past_string, unescape

_RESULT = re.compile(r"^(?P<token>\d+)?\^(?P<message>\S+?)(?P<payload>,.*)?$", re.DOTALL)
_NOTIFY = re.compile(r"^(?P<token>\d+)?[*=](?P<message>\S+?)(?P<payload>,.*)?$", re.DOTALL)
_STREAMS = (("console", re.compile(r'~"(?P<payload>.*)"', re.DOTALL)),
            ("log", re.compile(r'&"(?P<payload>.*)"', re.DOTALL)),
            ("target", re.compile(r'@"(?P<payload>.*)"', re.DOTALL)))
_FINISHED = re.compile(r"^\(gdb\)\s*$")
_WHITESPACE = " \t\r\n"
_VALUE_START = '{["'


class MISyntaxError(ValueError):
    """The line is not a record this parser can read."""


def parse_response(text: str) -> dict[str, Any]:
    """``{"type", "message", "payload"[, "token"]}`` for one MI line, as pygdbmi gives it."""
    for kind, pattern in (("result", _RESULT), ("notify", _NOTIFY)):
        match = pattern.match(text)
        if match is not None:
            message = match["message"] if kind == "result" else match["message"].strip()
            payload = None
            if match["payload"] is not None:
                payload = _Reader(text, match.start("payload") + 1).dict_body()
            token = int(match["token"]) if match["token"] is not None else None
            return {"type": kind, "message": message, "payload": payload, "token": token}
    for kind, pattern in _STREAMS:
        match = pattern.match(text)
        if match is not None:
            try:
                return {"type": kind, "message": None, "payload": unescape(match["payload"])}
            except (AssertionError, ValueError) as exc:
                raise MISyntaxError(f"bad {kind} string: {exc}") from None
    if _FINISHED.match(text):
        return {"type": "done", "message": None, "payload": None}
    return {"type": "output", "message": None, "payload": text}


class _Reader:
    """Reads values from ``text`` at ``pos``; each method leaves ``pos`` after what it read."""

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def _next(self) -> str:
        """The next character ('' at the end), consumed."""
        if self.pos >= len(self.text):
            return ""
        ch = self.text[self.pos]
        self.pos += 1
        return ch

    def dict_body(self) -> dict[str, Any]:
        """``name=value`` pairs up to a ``}`` or the end (a repeated name collects a list)."""
        obj: dict[str, Any] = {}
        while True:
            ch = self._next()
            if ch in ("}", ""):
                return obj
            if ch in _WHITESPACE or ch in "{,":
                continue
            self.pos -= 1
            key, value = self._key(), self.value()
            if key in obj:
                if isinstance(obj[key], list):
                    obj[key].append(value)
                else:
                    obj[key] = [obj[key], value]
            else:
                obj[key] = value
            while self.pos < len(self.text) and self.text[self.pos] not in "},":
                self.pos += 1

    def _key(self) -> str:
        end = self.text.find("=", self.pos)
        if end < 0:
            raise MISyntaxError(f"no '=' after a name at {self.pos}")
        key = self.text[self.pos:end]
        self.pos = end + 1
        return key

    def value(self) -> Any:
        """A c-string, ``{...}`` tuple or ``[...]`` list, after anything that is none of them."""
        while True:
            ch = self._next()
            if ch == "{":
                return self.dict_body()
            if ch == "[":
                return self._list()
            if ch == '"':
                try:
                    value, self.pos = advance_past_string(self.text, self.pos)
                except (AssertionError, ValueError) as exc:
                    raise MISyntaxError(f"bad c-string at {self.pos}: {exc}") from None
                return value
            if ch == "":
                raise MISyntaxError("a value is missing at the end of the line")

    def _list(self) -> list[Any]:
        """Values up to ``]`` (names in a list of results are dropped, as pygdbmi does)."""
        items: list[Any] = []
        while True:
            ch = self._next()
            if ch == "]":
                return items
            if ch == "":
                raise MISyntaxError("a list is not closed at the end of the line")
            if ch in _VALUE_START:
                self.pos -= 1
                items.append(self.value())
