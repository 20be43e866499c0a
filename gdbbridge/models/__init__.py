"""Typed, frozen views of debugger state, built from MI payloads.

pygdbmi hands every value over as a string; numbers, coordinates and masks are converted once
(:mod:`cudatui.gdbbridge.convert`), so that panes only ever see ints, tuples and enums-as-strings.
Frames, breakpoints, variables, registers and stops live here; the CUDA views (focus, devices,
kernels, warps, lanes ...) in :mod:`cudatui.gdbbridge.models.cuda`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping, Sequence

from cudatui.gdbbridge.convert import to_exit_code, to_int
from cudatui.gdbbridge.names import short_name
from cudatui.gdbbridge.models.host import HostStack
from cudatui.gdbbridge.outcome import StopNotes
from cudatui.gdbbridge.models.culprit import Culprit, LaneValues
from cudatui.gdbbridge.models.answers import Answer
from cudatui.gdbbridge.models.members import Members
from cudatui.gdbbridge.models.shared import SharedPage
from cudatui.gdbbridge.models.cuda import (
    BlockRange, CudaException, CudaFocus, Device, Instruction, Kernel, Lane, ThreadRange, Warp,
)


@dataclass(frozen=True)
class Frame:
    """One stack frame."""

    level: int
    func: str
    addr: int | None = None
    file: str | None = None
    fullname: str | None = None
    line: int | None = None
    args: tuple[tuple[str, str], ...] = ()
    library: str | None = None
    """The shared library of a frame without line information (gdb's ``from``), if gdb names it."""

    @classmethod
    def from_mi(cls, d: Mapping[str, Any], level: int = 0) -> Frame:
        args = tuple(
            (str(a.get("name", "")), str(a.get("value", "")))
            for a in d.get("args", []) or []
            if isinstance(a, Mapping)
        )
        return cls(
            level=to_int(d.get("level"), level) or 0,
            func=str(d.get("func") or d.get("function") or "??"),
            addr=to_int(d.get("addr")),
            file=d.get("file") or d.get("filename"),
            fullname=d.get("fullname"),
            line=to_int(d.get("line")),
            args=args,
            library=d.get("from"),
        )

    @property
    def where(self) -> str:
        """``function at file:line`` (or at its address), the function's C++ name shortened and
        the file named by its base name (a recording names the recording machine's paths; the
        source pane's title shows where the file was found)."""
        loc = (f"{self.file.rsplit('/', 1)[-1]}:{self.line}" if self.file and self.line
               else (hex(self.addr) if self.addr else ""))
        name = short_name(self.func)
        return f"{name} at {loc}" if loc else name


@dataclass(frozen=True)
class BreakpointLocation:
    """One resolved location of a breakpoint ("1.1", "1.2" ...)."""

    number: str
    enabled: bool
    addr: int | None
    func: str | None
    file: str | None
    fullname: str | None
    line: int | None

    @classmethod
    def from_mi(cls, d: Mapping[str, Any]) -> BreakpointLocation:
        return cls(
            number=str(d.get("number", "")),
            enabled=d.get("enabled", "y") == "y",
            addr=to_int(d.get("addr")),
            func=d.get("func"),
            file=d.get("file"),
            fullname=d.get("fullname"),
            line=to_int(d.get("line")),
        )


@dataclass(frozen=True)
class Breakpoint:
    """A breakpoint as gdb reports it: pending, single or with several locations."""

    number: int
    type: str
    enabled: bool
    original_location: str
    pending: bool
    hits: int
    condition: str | None = None
    file: str | None = None
    fullname: str | None = None
    line: int | None = None
    func: str | None = None
    locations: tuple[BreakpointLocation, ...] = ()

    @classmethod
    def from_mi(cls, d: Mapping[str, Any]) -> Breakpoint:
        """One ``bkpt`` record; ValueError if it has no breakpoint number (never a silent 0)."""
        number = to_int(d.get("number"))
        if number is None:
            raise ValueError(f"breakpoint record without a number: {dict(d)!r}")
        locs = tuple(BreakpointLocation.from_mi(x) for x in d.get("locations", []) or [] if isinstance(x, Mapping))
        first = next((loc for loc in locs if loc.enabled and loc.line), None)
        return cls(
            number=number,
            type=str(d.get("type", "breakpoint")),
            enabled=d.get("enabled", "y") == "y",
            original_location=str(d.get("original-location") or d.get("pending") or ""),
            pending=d.get("addr") == "<PENDING>" or "pending" in d and not locs,
            hits=to_int(d.get("times"), 0) or 0,
            condition=d.get("cond"),
            file=d.get("file") or (first.file if first else None),
            fullname=d.get("fullname") or (first.fullname if first else None),
            line=to_int(d.get("line")) or (first.line if first else None),
            func=d.get("func") or (first.func if first else None),
            locations=locs,
        )

    @classmethod
    def from_records(cls, records: Sequence[Any]) -> tuple[Breakpoint, ...]:
        """Breakpoints from a list of records (a ``-break-list`` body, a ``bkpt`` list).

        MI3 nests locations in ``locations=[...]``; MI2 puts them as records of their own
        ("1.1", "1.2") right after their breakpoint: those are attached to it. Records without
        a breakpoint number are dropped.
        """
        groups: list[tuple[Mapping[str, Any], list[Mapping[str, Any]]]] = []
        for record in records:
            if not isinstance(record, Mapping):
                continue
            number = str(record.get("number", ""))
            if "." in number and groups and number.split(".", 1)[0] == str(groups[-1][0].get("number")):
                groups[-1][1].append(record)
            elif to_int(number) is not None:
                groups.append((record, []))
        return tuple(
            cls.from_mi({**main, "locations": locs} if locs and not main.get("locations") else main)
            for main, locs in groups
        )

    @classmethod
    def from_answer(cls, payload: Mapping[str, Any]) -> Breakpoint | None:
        """The breakpoint of a ``-break-insert`` answer or ``=breakpoint-created/modified``
        record, whatever its shape (``bkpt={...}`` pending, single or ``<MULTIPLE>``, or a
        ``bkpt`` list); None when no record in it carries a breakpoint number."""
        value = payload.get("bkpt")
        records = [value] if isinstance(value, Mapping) else value if isinstance(value, list) else []
        found = cls.from_records(records)
        return found[0] if found else None


@dataclass(frozen=True)
class Variable:
    """A local, argument or watch expression and its value as gdb formats it."""

    name: str
    value: str
    type: str = ""
    is_arg: bool = False

    @classmethod
    def from_mi(cls, d: Mapping[str, Any]) -> Variable:
        return cls(
            name=str(d.get("name", "")),
            value=str(d.get("value", "")),
            type=str(d.get("type", "")),
            is_arg=d.get("arg") == "1",
        )

    @property
    def optimized_out(self) -> bool:
        return self.value == "<optimized out>"

    @property
    def address_space(self) -> str | None:
        """Where the variable itself is stored: the LAST ``@space`` of cuda-gdb's type.

        ``const @generic float * @parameter`` is a parameter (pointing to generic memory),
        ``@shared float [18][18]`` is shared, ``@register int`` a register; None without one.
        """
        words = self.type.replace("*", " ").replace("(", " ").replace(")", " ").split()
        spaces = [word[1:] for word in words if word.startswith("@") and len(word) > 1]
        return spaces[-1] if spaces else None


@dataclass(frozen=True)
class Register:
    """One register: its gdb number, name, group and raw value."""

    number: int
    name: str
    value: str
    group: str

    @property
    def int_value(self) -> int | None:
        return to_int(self.value)


@dataclass(frozen=True)
class StopEvent:
    """Why and where the target stopped (one ``*stopped`` record)."""

    reason: str
    frame: Frame | None = None
    focus: CudaFocus | None = None
    signal: str | None = None
    signal_meaning: str | None = None
    exception: CudaException | None = None
    breakpoint: int | None = None
    exit_code: int | None = None
    thread_id: int | None = None

    @classmethod
    def from_mi(cls, d: Mapping[str, Any]) -> StopEvent:
        frame = d.get("frame")
        focus = d.get("CudaFocus")
        exit_code = to_exit_code(d.get("exit-code"))
        return cls(
            reason=str(d.get("reason", "unknown")),
            frame=Frame.from_mi(frame) if isinstance(frame, Mapping) else None,
            focus=CudaFocus.from_mi(focus) if isinstance(focus, Mapping) else None,
            signal=d.get("signal-name"),
            signal_meaning=d.get("signal-meaning"),
            exception=CudaException.from_signal(d.get("signal-name"), d.get("signal-meaning")),
            breakpoint=to_int(d.get("bkptno")),
            exit_code=0 if exit_code is None and d.get("reason") == "exited-normally" else exit_code,
            thread_id=to_int(d.get("thread-id")),
        )

    @property
    def exited(self) -> bool:
        return self.reason.startswith("exited")


@dataclass(frozen=True)
class QueryFailure:
    """A request of a refresh batch that gdb refused: ``what`` it was for ("stack", "cuda lanes"),
    gdb's ``message``, and whether the replay stand-in refused it because its recording lacks it."""

    what: str
    message: str
    not_recorded: bool = False

    def __str__(self) -> str:
        return f"{self.what}: {self.message}"


@dataclass(frozen=True)
class StopState:
    """Everything the panes show for one stop, assembled by one refresh batch.

    ``generation`` grows by one per stop or focus change; panes drop states older than
    the one they show.
    """

    generation: int
    stop: StopEvent
    frames: tuple[Frame, ...] = ()
    selected_frame: int = 0
    variables: tuple[Variable, ...] = ()
    registers: tuple[Register, ...] = ()
    focus: CudaFocus | None = None
    devices: tuple[Device, ...] = ()
    kernels: tuple[Kernel, ...] = ()
    warps: tuple[Warp, ...] = ()
    lanes: tuple[Lane, ...] = ()
    breakpoints: tuple[Breakpoint, ...] = ()
    errors: tuple[QueryFailure, ...] = field(default=())
    notes: StopNotes = field(default_factory=StopNotes)
    """What the program's output says about this stop: the error it ended with, the device assert."""
    watches: tuple[Variable, ...] = ()
    """The watch expressions' values here (``<not stopped>`` once the program has ended)."""
    host: HostStack | None = None
    """The program's Python stack behind this stop (None: not a Python program, or none recorded)."""
    host_note: str | None = None
    """Set when the host stack's line is where the host waits for the GPU, not the kernel's launch."""
    threads: tuple[ThreadRange, ...] = ()
    """The coalesced thread ranges (same pc and line) of every running kernel, read with the stop's
    tables when it is new (a focus or frame change keeps them: no thread moves while stopped);
    empty at a host stop and at a Warp Assert."""
    threads_error: str = ""
    """Why ``threads`` is empty at a kernel stop: gdb refused the thread table, or it was not
    asked at a Warp Assert (the Focus pane says so under an open block range); "" otherwise."""
    breakpoint_threads: tuple[ThreadRange, ...] = ()
    """At a kernel's breakpoint stop: the ranges of ``threads`` sitting at that breakpoint's lines."""
    culprit: Culprit | None = None
    """At a post-mortem's warp-wide exception: the culprit lane the Debugger found (and focused)
    when the coredump was opened, or the Warps pane's ``C`` found (the state at that lane), and why;
    kept by a focus or frame change (None elsewhere)."""
    sass: Answer[tuple[Instruction, ...]] | None = None
    """The SASS around the selected frame's pc (and errorpc), gathered while the SASS pane is on
    the screen (None: not asked at this stop; :mod:`cudatui.gdbbridge.debugger.on_demand`)."""
    blocks: Answer[tuple[BlockRange, ...]] | None = None
    """The coalesced block ranges of every running kernel, gathered while the Focus pane on the
    screen has a kernel open (None: not asked at this stop; :mod:`cudatui.gdbbridge.debugger.parts.blocks`)."""
    members: Members | None = None
    """The children of each line opened in the Locals tree that this stop shows, in tree order,
    read while the Locals pane is on the screen (None: not asked at this stop;
    :mod:`cudatui.gdbbridge.debugger.parts.members`)."""
    shared: tuple[Answer[SharedPage], ...] = ()
    """The pages of shared arrays the Shared pane shows, read while it is on the screen, one per
    window it asked for (:mod:`cudatui.gdbbridge.debugger.parts.shared`)."""
    lane_watch: Answer[LaneValues] | None = None
    """The warp watch: (lane, value) of its expression (``asked``) in each active lane of the focused
    warp, gathered while the Warps pane is on the screen (None: no expression, or not asked here;
    :mod:`cudatui.gdbbridge.debugger.parts.lane_watch`)."""
    unasked: frozenset[str] = frozenset()
    """What the stop's batch left out because no pane on the screen shows it (``"registers"``,
    ``"threads"``: see :data:`~cudatui.gdbbridge.debugger.shown.PARTS`); the Debugger asks for it
    and shows the stop again once a pane that shows it comes on the screen."""

    @property
    def frame(self) -> Frame | None:
        if 0 <= self.selected_frame < len(self.frames):
            return self.frames[self.selected_frame]
        return self.stop.frame

    @property
    def errorpc(self) -> int | None:
        """The faulting instruction's address at a CUDA exception (the ``errorpc`` register)."""
        return next((r.int_value for r in self.registers if r.name == "errorpc"), None)

    @property
    def in_kernel(self) -> bool:
        return self.focus is not None and self.focus.kernel is not None
