"""GDB/MI: the one command builder (with c-string quoting) and the output-line parser.

Every MI command cudatui sends is built by :func:`build`. Values a user can type
(expressions, paths, conditions, console commands) are passed as plain ``str`` and are always
quoted as MI c-strings, so nothing typed can end the string or start another command. Our own
fixed words (``--simple-values``, register numbers, ``x``) are passed as :class:`Flag`.

Bytes that are not UTF-8 (a file name or ``-b`` location from the command line, which Python
decodes with ``surrogateescape`` into U+DC80..U+DCFF) are sent as themselves, as octal escapes
that gdb reads back into the same byte. Any other lone surrogate cannot be sent: :func:`build`
raises :class:`MIBuildError` (an :class:`MIError`) before anything reaches gdb.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.mi_values import MISyntaxError, parse_response

_OPERATION = re.compile(r"^-[a-z][a-z0-9-]*$")
_FLAG = re.compile(r"^[A-Za-z0-9_$.+-]+$")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSENDABLE = re.compile("[\ud800-\udc7f\udd00-\udfff]")
"""Lone surrogates that do not stand for a byte (those of ``surrogateescape`` do)."""

BIG_LINE = 64 * 1024
"""Lines longer than this are parsed in a thread, off the event loop."""


class MIBuildError(MIError, ValueError):
    """A command could not be built (bad operation name or flag, text that cannot be sent).

    An :class:`MIError`, so a caller handles it like gdb's own ``^error``: a request fails
    instead of never being answered."""


@dataclass(frozen=True)
class Flag:
    """A literal MI word chosen by cudatui itself (never user text): ``--thread``, ``x``, ``5``."""

    text: str

    def __post_init__(self) -> None:
        if not _FLAG.match(self.text):
            raise MIBuildError(f"not a valid MI flag: {self.text!r}")


def quote(value: str) -> str:
    """Quote ``value`` as an MI c-string: the result is one line, starting and ending with '"'."""
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\{ord(ch):03o}")
        elif "\udc80" <= ch <= "\udcff":  # a byte that was not UTF-8 (surrogateescape): that byte
            out.append(f"\\{ord(ch) - 0xDC00:03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def build(token: int | None, operation: str, *args: str | int | Flag) -> str:
    """Build one MI command line (without the trailing newline).

    ``str`` arguments are always quoted; ``int`` are written as numbers; :class:`Flag` as-is.
    """
    if not _OPERATION.match(operation):
        raise MIBuildError(f"not an MI operation: {operation!r}")
    parts = [f"{token if token is not None else ''}{operation}"]
    for arg in args:
        if isinstance(arg, Flag):
            parts.append(arg.text)
        elif isinstance(arg, bool):
            raise MIBuildError("booleans are not MI arguments")
        elif isinstance(arg, int):
            parts.append(str(arg))
        elif isinstance(arg, str):
            bad = _UNSENDABLE.search(arg)
            if bad:
                raise MIBuildError(f"{operation}: cannot send {arg[:80]!r} to gdb (U+{ord(bad.group()):04X} "
                                   "is a lone surrogate, not text or a byte)", operation)
            parts.append(quote(arg))
        else:
            raise MIBuildError(f"unsupported MI argument type: {type(arg).__name__}")
    return " ".join(parts)


def console(command: str) -> tuple[str, str, str]:
    """Arguments for running a CLI command through MI: ``-interpreter-exec console "..."``."""
    return ("-interpreter-exec", Flag("console"), command)  # type: ignore[return-value]


RecordKind = Literal["result", "exec", "notify", "status", "console", "target", "log", "prompt", "other"]


@dataclass(frozen=True)
class Record:
    """One parsed MI output line.

    ``kind``: result (``^``), exec (``*``), notify (``=``), status (``+``), console (``~``),
    target (``@``), log (``&``), prompt (``(gdb)``) or other (not MI at all).
    ``message`` is the result class or async class ("done", "stopped", "breakpoint-modified").
    ``payload`` is a dict for result/async records and a str for stream records.
    """

    kind: RecordKind
    token: int | None
    message: str | None
    payload: Any
    raw: str


_ASYNC_KINDS = {"*": "exec", "=": "notify", "+": "status"}
_STREAM_KINDS = {"~": "console", "@": "target", "&": "log"}
_RESULT_CLASSES = {"done", "running", "connected", "error", "exit"}
_TOKEN = re.compile(r"^(\d{0,18})([\^*=+~@&])")


_CLOSERS = {"{": "}", "[": "]"}


def well_formed(text: str) -> bool:
    """True when every c-string is closed and brackets/braces balance (outside strings).

    pygdbmi loops forever on a truncated list or tuple (``^done,a=[1,2``), so lines that fail
    this check never reach it.
    """
    stack: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in _CLOSERS:
            stack.append(_CLOSERS[ch])
        elif ch in "}]":
            if not stack or stack.pop() != ch:
                return False
    return not in_string and not stack


_PLAIN_RESULT = re.compile(r'([0-9]{0,18})\^(done|running|connected|error|exit)((?:,[a-z][a-z0-9_-]*="[^"\\\n]*")*)')
"""A result record whose payload is only ``name="text"`` pairs without escapes: the answer to
most cheap commands (``5^done,value="2"``)."""
_PLAIN_PAIR = re.compile(r'([a-z][a-z0-9_-]*)="([^"]*)"')


def parse_line(line: str) -> Record:
    """Parse one line of gdb's MI output. Never raises: non-MI text becomes kind "other"."""
    text = line.rstrip("\r\n")
    if text.strip() == "(gdb)":
        return Record("prompt", None, None, None, text)
    return _plain_result(text) or _parse_mi(text)


def _plain_result(text: str) -> Record | None:
    """The record of a plain result line (see ``_PLAIN_RESULT``) without pygdbmi, or None.

    Exactly what :func:`_parse_mi` gives for such a line (tests/test_session_fastpath.py): the
    strings hold no escape, so they are taken verbatim. A name given twice (pygdbmi makes a
    list of its values) is left to pygdbmi."""
    m = _PLAIN_RESULT.fullmatch(text)
    if m is None:
        return None
    token, message, pairs = m.groups()
    found = _PLAIN_PAIR.findall(pairs)
    payload = dict(found)
    if len(payload) != len(found):
        return None
    return Record("result", int(token) if token else None, message, payload, text)


def _parse_mi(text: str) -> Record:
    """Parse one MI line (without its line break) with the total parser of :mod:`.mi_values`."""
    m = _TOKEN.match(text)
    if not m:
        return Record("other", None, None, text, text)
    sigil = m.group(2)
    token = int(m.group(1)) if m.group(1) else None
    if not well_formed(text):
        return Record("other", None, None, text, text)
    try:
        parsed = parse_response(text)
    except (MISyntaxError, RecursionError):
        return Record("other", None, None, text, text)
    ptype = parsed.get("type")
    if sigil == "^" and ptype == "result" and parsed.get("message") in _RESULT_CLASSES:
        return Record("result", token, parsed.get("message"), parsed.get("payload") or {}, text)
    if sigil in _ASYNC_KINDS and ptype == "notify":
        return Record(_ASYNC_KINDS[sigil], token, parsed.get("message"), parsed.get("payload") or {}, text)  # type: ignore[arg-type]
    if sigil in _STREAM_KINDS and ptype in ("console", "target", "log"):
        payload = parsed.get("payload")
        return Record(_STREAM_KINDS[sigil], None, None, payload if isinstance(payload, str) else "", text)  # type: ignore[arg-type]
    return Record("other", None, None, text, text)
