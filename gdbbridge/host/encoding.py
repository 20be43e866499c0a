"""A host stack as an MI result, so that a recording carries it and a replay serves it.

The host stack is not something gdb prints: it is read beside gdb (:mod:`.reader`). To keep it
in a session transcript it is written there as the answer to a virtual command,
``-cudatui-host-stack``::

    999999999-cudatui-host-stack
    999999999^done,pid="6037",threads=[{id="6037",name="python",frames=[{file="/w/t.py",
        line="7",func="<module>",code="print(y.sum().item())",user="1"}]}]

(one line), with ``error="..."`` after ``threads`` when the read failed and ``name`` left out
when Python does not know the thread's name. Frames are innermost first. Every string is an MI
c-string made by the one quoting builder (:func:`cudatui.gdbbridge.session.mi.quote`), after
lone surrogates became U+FFFD, so any file name (quotes, backslashes, line breaks, escape
sequences) stays on one line and reads back as it was; :func:`decode` reads what
``parse_line`` makes of it. A replay answers the command like any query of that stop, so the
front end asks ``-cudatui-host-stack`` instead of pystack and decodes the payload.

The token of a recorded exchange is ``RECORD_TOKEN``, a number the session's own counter never
reaches, so no real command's answer is taken for it (and the replay rewrites it to the asker's).
"""

from __future__ import annotations

import re
from typing import Any
from collections.abc import Callable, Mapping

from cudatui.gdbbridge.models.host import HostFrame, HostStack, HostThread, clean
from cudatui.gdbbridge.session.mi import build, quote

COMMAND = "-cudatui-host-stack"
RECORD_TOKEN = 999_999_999

_NUMBER = re.compile(r"-?[0-9]{1,19}")


class _Malformed(ValueError):
    """A payload that is not a host stack this version wrote."""


def encode(stack: HostStack) -> str:
    """The result payload for ``stack``: ``pid="…",threads=[…]`` and ``,error="…"`` if any."""
    threads = ",".join(_thread(t) for t in stack.threads)
    text = f"pid={quote(str(stack.pid))},threads=[{threads}]"
    return text if stack.error is None else f"{text},error={_str(stack.error)}"


def result_line(stack: HostStack, token: int) -> str:
    """The whole MI result line answering ``-cudatui-host-stack`` with ``stack``."""
    return f"{token}^done,{encode(stack)}"


def record(write: Callable[[str, str], None], stack: HostStack) -> None:
    """Write the virtual exchange to a recording: ``write`` takes (direction, line), as
    :meth:`cudatui.gdbbridge.session.recorder.Recorder.write` does."""
    write("in", build(RECORD_TOKEN, COMMAND))
    write("out", result_line(stack, RECORD_TOKEN))


def decode(payload: Mapping[str, Any]) -> HostStack:
    """The :class:`HostStack` of a result payload; a payload that is not one gives a stack
    whose ``error`` says so (never raises)."""
    try:
        threads = payload.get("threads", [])
        if not isinstance(threads, list):
            raise _Malformed("threads is not a list")
        error = payload.get("error")
        if error is not None and not isinstance(error, str):
            raise _Malformed("error is not a string")
        return HostStack(_int(payload.get("pid")), tuple(_read_thread(t) for t in threads),
                         clean(error) if error is not None else None)
    except _Malformed as exc:
        pid = payload.get("pid")
        known = pid if isinstance(pid, str) and _NUMBER.fullmatch(pid) is not None else "0"
        return HostStack(int(known), error=f"the recorded host stack cannot be read: {exc}")


def _str(text: str) -> str:
    return quote(clean(text))


def _thread(thread: HostThread) -> str:
    name = "" if thread.name is None else f",name={_str(thread.name)}"
    frames = ",".join(_frame(f) for f in thread.frames)
    return f"{{id={quote(str(thread.tid))}{name},frames=[{frames}]}}"


def _frame(frame: HostFrame) -> str:
    return (f"{{file={_str(frame.file)},line={quote(str(frame.line))},func={_str(frame.function)},"
            f"code={_str(frame.code)},user={quote('1' if frame.user else '0')}}}")


def _read_thread(value: Any) -> HostThread:
    if not isinstance(value, dict):
        raise _Malformed("a thread is not a tuple")
    frames = value.get("frames", [])
    if not isinstance(frames, list):
        raise _Malformed("frames is not a list")
    name = value.get("name")
    return HostThread(_int(value.get("id")), clean(name) if isinstance(name, str) else None,
                      tuple(_read_frame(f) for f in frames))


def _read_frame(value: Any) -> HostFrame:
    if not isinstance(value, dict):
        raise _Malformed("a frame is not a tuple")
    texts = [value.get(key) for key in ("file", "func", "code")]
    if not all(isinstance(t, str) for t in texts) or value.get("user") not in ("0", "1"):
        raise _Malformed("a frame lacks file, func, code or user")
    file, function, code = (clean(str(t)) for t in texts)
    return HostFrame(file, _int(value.get("line")), function, code, value["user"] == "1")


def _int(value: Any) -> int:
    if not isinstance(value, str) or _NUMBER.fullmatch(value) is None:
        raise _Malformed(f"not a number: {str(value)[:40]!r}")
    return int(value)
