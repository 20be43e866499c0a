"""Make a program's terminal output harmless to show inside another terminal UI.

A debuggee writes whatever it likes to its pty: colour codes, cursor movement, window-title
OSC sequences, bells, backspaces, bidi overrides. Shown raw inside the TUI they would move the
cursor, retitle the window or reorder text. :func:`sanitize` keeps the printable text and the
line structure and removes or makes visible everything else; :class:`TerminalFilter` does the
same for a stream cut into arbitrary chunks (an escape sequence may be split between two).

Names are as hostile as output: a source file named with ``#line 1 "\\033]2;TITLE\\007x.c"``, a
library or function whose name holds an OSC 52 clipboard write, a recording or a sanitizer
report that says so. :func:`clean` applies :func:`sanitize` to every string inside a value (the
frozen dataclasses of events and models, tuples, lists, dicts), so that whatever hands text to
a UI can make all of it harmless in one call.

An error message printed on a terminal is cleaned by :func:`one_line`: every error line the
command line writes goes through it (``cudatui.tui.cli_errors``), so a file name holding
an OSC title or clipboard write, a newline or a C1 byte is shown, not obeyed, and stays on one
line.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import fields, is_dataclass, replace
from typing import Any, TypeVar

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


_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")
"""A character :func:`sanitize` changes: a control character other than the line break (ESC,
tab, CR, C1 ...) or a bidi control."""

T = TypeVar("T")
_PLAIN = frozenset({int, float, bool, type(None)})
"""Types that hold no text."""
_FIELDS: dict[type, tuple[str, ...]] = {}
"""The field names of each class :func:`clean` has met (none for a class that is no dataclass)."""
_FROZEN: dict[type, bool] = {}
"""Whether each dataclass :func:`clean` has met is frozen."""
_CLEAN: dict[int, weakref.ref[Any]] = {}
"""Frozen dataclass instances :func:`clean` found clean, by ``id`` (the weak reference tells a
reused id apart and removes the entry when its object goes): a stop's models are cleaned again
at each breakpoint or watch update of the same stop (~200 registers, the frames, the lanes: 7%
of the UI part of a step, ``python -m bench.stop_to_screen --profile``); found again, they are
not scanned again."""


def _forget(key: int) -> Any:
    return lambda _gone: _CLEAN.pop(key, None)


def clean(value: T) -> T:
    """``value`` with :func:`sanitize` applied to every ``str`` in it: the value itself, the items
    of tuples and lists, the keys and values of dicts and the fields of dataclasses, however
    deep. Whatever needs no change is returned as it is (the same object), so a clean value
    costs one scan and keeps its identity; enums and other types are left alone."""
    return _clean(value)  # type: ignore[no-any-return]


def _clean(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is str:
        return sanitize(value) if _UNSAFE.search(value) else value
    if kind is tuple or kind is list:
        items = [_clean(item) for item in value]
        return value if all(new is old for new, old in zip(items, value)) else kind(items)
    if kind is dict:
        pairs = [(_clean(k), _clean(v)) for k, v in value.items()]
        return value if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items())) else dict(pairs)
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in fields(kind)) if is_dataclass(kind) else ()
        _FROZEN[kind] = bool(names) and kind.__dataclass_params__.frozen
    frozen = _FROZEN[kind]
    if frozen:
        known = _CLEAN.get(id(value))
        if known is not None and known() is value:
            return value
    changes = {}
    mutable = False
    for name in names:
        old = getattr(value, name)
        mutable = mutable or type(old) is list or type(old) is dict  # may change after: scanned each time
        new = _clean(old)
        if new is not old:
            changes[name] = new
    if changes:
        return replace(value, **changes)
    if frozen and not mutable:
        try:
            _CLEAN[id(value)] = weakref.ref(value, _forget(id(value)))
        except TypeError:  # a class with __slots__ and no __weakref__
            _FROZEN[kind] = False
    return value


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


_ANY_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_LINE = 600
"""Characters of an error line kept; a longer one (a 5,000-character file name) loses its middle."""


def _byte(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else "\ufffd"


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` as one harmless line for a terminal: every control character shown as ``^X``
    (ESC ``^[``, BEL ``^G``, newline ``^J``; C1 as U+FFFD), so that an escape sequence in a file
    name is visible and inert rather than dropped; bidi controls dropped; a byte that was not
    UTF-8 (a lone surrogate from the command line or a file name) as ``\\xff``; beyond ``limit``
    characters the middle becomes ``…``."""
    text = _LONE_SURROGATE.sub(_byte, text)
    text = _ANY_CONTROL.sub(_visible, text).translate(_BIDI)
    if len(text) > limit:
        half = (limit - 1) // 2
        text = f"{text[:half]}…{text[len(text) - half:]}"
    return text
