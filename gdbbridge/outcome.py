"""What the program printed that explains a stop or its end: :class:`StopNotes`.

The Debugger keeps the tail of the program's output (:class:`OutputTail`) and, at every stop,
reads from it

- at the end of the program: the Python exception it died of (the last ``Traceback (most recent
  call last):`` in the output, its frames and its exception line) or a CUDA error message
  (``CUDA error: an illegal memory access was encountered``, ``cudaErrorIllegalAddress``,
  ``CUDA_ERROR_ILLEGAL_ADDRESS`` ...), and the next step (:func:`next_step`);
- at a CUDA exception: the device assert message of the focused thread, as PyTorch's kernels
  and ``assert()`` print it (``File.cu:111: operator(): block: [0,0,0], thread: [2,0,0]
  Assertion `…` failed.``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cudatui.gdbbridge.paths import is_user_file

TAIL_CHARS = 64 * 1024
"""How much of the program's output the notes are read from (its end)."""

_TRACEBACK = "Traceback (most recent call last):"
_FILE = re.compile(r'^\s+File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.+))?$')
_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(?::.*)?$")
_CUDA_ERROR = re.compile(r"(?:CUDA error|CUDA Error|cuda error)\b[^\n]*|\bcudaError[A-Z]\w*[^\n]*|\bCUDA_ERROR_[A-Z_]+[^\n]*")
_ASSERT = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+): (?P<func>.+?): block: \[(?P<block>\d+,\d+,\d+)\], "
                     r"thread: \[(?P<thread>\d+,\d+,\d+)\] Assertion `(?P<cond>.*)` failed\.?$", re.MULTILINE)
ASYNC_ERRORS = ("illegal memory access", "illegal address", "misaligned address", "unspecified launch failure",
                "launch failure", "device-side assert", "illegal instruction", "out of bounds", "misaligned",
                "ILLEGAL_ADDRESS", "LAUNCH_FAILED", "IllegalAddress", "LaunchFailure", "cudaErrorAssert",
                "MisalignedAddress", "IllegalInstruction", "INVALID_ADDRESS_SPACE")
"""Errors of a kernel that the host learns about later, at a sync point: the line that raised
them is not the launch, and the kernel may have written out of bounds before it failed."""


class OutputTail:
    """The last :data:`TAIL_CHARS` characters of the program's output."""

    def __init__(self) -> None:
        self.text = ""

    def feed(self, text: str) -> None:
        self.text = (self.text + text)[-TAIL_CHARS:]


@dataclass(frozen=True)
class TracebackFrame:
    """One frame of a Python traceback: file, line, function and the code line printed under it."""

    file: str
    line: int
    function: str = ""
    code: str = ""

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class ProgramError:
    """The error the program ended with: ``summary`` is its one line (``RuntimeError: CUDA
    error: …``); ``frames`` the Python traceback, innermost last (none for a CUDA error message
    of a compiled program)."""

    summary: str
    frames: tuple[TracebackFrame, ...] = ()

    @property
    def frame(self) -> TracebackFrame | None:
        """The innermost frame of the user's code (else the innermost frame): where to look."""
        users = [f for f in self.frames if is_user_file(f.file)]
        frames = users or list(self.frames)
        return frames[-1] if frames else None

    @property
    def asynchronous(self) -> bool:
        """Whether it is a kernel's error reported later (see :data:`ASYNC_ERRORS`)."""
        return any(word.lower() in self.summary.lower() for word in ASYNC_ERRORS)


@dataclass(frozen=True)
class DeviceAssert:
    """A device assert message: where the assert is, the thread that failed it and its condition."""

    file: str
    line: int
    function: str
    block: tuple[int, int, int]
    thread: tuple[int, int, int]
    condition: str

    def __str__(self) -> str:
        return f"Assertion `{self.condition}` failed at {self.file.rsplit('/', 1)[-1]}:{self.line}"


@dataclass(frozen=True)
class StopNotes:
    """What the program's output says about a stop (all None when it says nothing)."""

    error: ProgramError | None = None
    device_assert: DeviceAssert | None = None
    next_step: str | None = None


def python_error(output: str) -> ProgramError | None:
    """The exception of the last Python traceback in ``output``, or None."""
    start = output.rfind(_TRACEBACK)
    if start < 0:
        return None
    lines = output[start + len(_TRACEBACK):].replace("\r\n", "\n").split("\n")
    frames: list[TracebackFrame] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        found = _FILE.match(line)
        if found:
            code = lines[index + 1].strip() if index + 1 < len(lines) and lines[index + 1].startswith("    ") else ""
            frames.append(TracebackFrame(found["file"], int(found["line"]), found["func"] or "", code))
        elif line and not line[0].isspace():
            summary = line.strip()
            if _EXCEPTION.match(summary):
                return ProgramError(summary, tuple(frames))
        index += 1
    return None


def cuda_error(output: str) -> ProgramError | None:
    """The last CUDA error message in ``output`` (a compiled program's own report), or None."""
    found = list(_CUDA_ERROR.finditer(output))
    return ProgramError(found[-1].group(0).strip()) if found else None


def device_assert(output: str, block: tuple[int, int, int] | None = None,
                  thread: tuple[int, int, int] | None = None) -> DeviceAssert | None:
    """The device assert message of ``block``/``thread`` in ``output`` (else the last one), or None."""
    found = [DeviceAssert(m["file"], int(m["line"]), m["func"], _dim(m["block"]), _dim(m["thread"]), m["cond"])
             for m in _ASSERT.finditer(output)]
    mine = [a for a in found if (a.block, a.thread) == (block, thread)]
    chosen = mine or found
    return chosen[-1] if chosen else None


def _dim(text: str) -> tuple[int, int, int]:
    x, y, z = (int(part) for part in text.split(","))
    return x, y, z


def next_step(exit_code: int | None, error: ProgramError | None, cuda: bool) -> str | None:
    """What to do after the program ended (``cuda``: it used the GPU), or None."""
    if error is not None and error.asynchronous:
        return ("a kernel failed before the call that reported it (CUDA reports a kernel's errors later): L re-runs "
                "with CUDA_LAUNCH_BLOCKING=1 to report it at its launch, m runs memcheck to find the bad access")
    if error is not None:
        return "r runs it again"
    if cuda and exit_code == 0:
        return ("no kernel faulted under the debugger, but a write out of bounds that lands in memory the "
                "program has mapped does not fault: m runs memcheck to check every access")
    return None


def notes_at_exit(output: str, exit_code: int | None, cuda: bool) -> StopNotes:
    """The notes of the program's end (see the module docstring)."""
    error = python_error(output) or (cuda_error(output) if exit_code not in (0, None) or cuda else None)
    return StopNotes(error=error, next_step=next_step(exit_code, error, cuda))
