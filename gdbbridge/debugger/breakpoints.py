"""Breakpoints, including CUDA-thread conditions that cuda-gdb can only take after the kernel
module is loaded (before that, ``-break-insert -c "threadIdx.x == 5"`` fails with
"No symbol threadIdx in current context", or answers ``^done`` with no breakpoint).

Such a condition is kept here as *deferred*: the breakpoint is inserted pending without it and
cuda-gdb is asked to stop at the next kernel launch (``set cuda break_on_launch application``).
At that stop (``reason="breakpoint-hit"`` with no ``bkptno``, "CUDA thread hit application
kernel entry function breakpoint") every deferred condition is applied, the launch stop is
switched off again and the caller resumes: no thread has reached the breakpoint yet, so the
condition holds from its first hit. A gdb without ``cuda`` settings applies the condition at
the breakpoint's first stop instead and resumes when the stopping thread fails it.
``should_skip`` tells the caller when to resume.

:class:`Breakpoints` also holds the session's breakpoint table (:attr:`Breakpoints.table`), kept
from its own requests, gdb's ``=breakpoint-*`` notifications and each stop's ``-break-list``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Mapping

from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.cuda.evaluation import holds
from cudatui.gdbbridge.session import events as ev
from cudatui.gdbbridge.session.mi import Flag
from cudatui.gdbbridge.models import Breakpoint, StopEvent
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession


def pending_text(pending: Mapping[int, tuple[str, str]]) -> str:
    """How pending breakpoints (by number: location, what gdb said) are told, in one phrase:
    ``breakpoint 2 at k.cu:9 is pending (No symbol ...)``, ``breakpoints 2, 3 at a, b are pending``."""
    numbers = ", ".join(map(str, pending))
    locations = ", ".join(location for location, _ in pending.values())
    said = "; ".join(dict.fromkeys(log for _, log in pending.values() if log))
    many = len(pending) > 1
    return f"breakpoint{'s' * many} {numbers} at {locations} {'are' if many else 'is'} pending{f' ({said})' if said else ''}"


@dataclass(frozen=True)
class BreakpointSpec:
    """A breakpoint to insert: ``location`` (``file:line``, a function) and an optional
    ``condition``; written ``LOCATION if CONDITION`` on the command line and in the config."""

    location: str
    condition: str | None = None

    @classmethod
    def parse(cls, text: str) -> BreakpointSpec:
        """``"bugs.cu:13 if threadIdx.x == 5"`` -> ``BreakpointSpec("bugs.cu:13", "threadIdx.x == 5")``."""
        location, sep, condition = text.partition(" if ")
        return cls(location.strip(), (condition.strip() or None) if sep else None)

    def __str__(self) -> str:
        return f"{self.location} if {self.condition}" if self.condition else self.location


def _answer(sent: str, lines: list[ev.RawLine]) -> str:
    """gdb's raw result line for the command ``sent`` (matched by token), cut to 2000 characters."""
    token = sent[: len(sent) - len(sent.lstrip("0123456789"))]
    answer = next((line.text for line in lines if line.direction == "out" and line.text.startswith(f"{token}^")), "")
    return (answer or "(no result line seen)")[:2000]


_BREAK_ON_LAUNCH = (Flag("cuda"), Flag("break_on_launch"))
"""Bare words: quoted, cuda-gdb reads ``-gdb-set "cuda" ...`` as an expression and sets nothing."""


def _needs_kernel(message: str) -> bool:
    return "No symbol" in message and ("threadIdx" in message or "blockIdx" in message or "blockDim" in message)


@dataclass
class Breakpoints:
    """Inserts breakpoints and carries deferred CUDA conditions until they can be applied."""

    session: GdbSession
    deferred: dict[int, str] = field(default_factory=dict)
    launch_armed: bool = False
    """True while cuda-gdb was asked (by this object) to stop at the next kernel launch."""
    table: dict[int, Breakpoint] = field(default_factory=dict)
    """Every breakpoint of the session by number, as gdb last reported it."""

    @property
    def listed(self) -> tuple[Breakpoint, ...]:
        """The table in breakpoint number order."""
        return tuple(self.table[n] for n in sorted(self.table))

    def at(self, path: str, line: int) -> tuple[Breakpoint, ...]:
        """The breakpoints with a location at ``path:line`` (the same file name counts)."""
        return tuple(bp for bp in self.listed if _at(bp, path, line))

    def listing(self, breakpoints: tuple[Breakpoint, ...]) -> None:
        """Take a ``-break-list`` answer as the whole table."""
        self.table = {bp.number: bp for bp in breakpoints}

    def note(self, name: str, payload: Mapping[str, Any]) -> bool:
        """Follow a ``=breakpoint-created/modified/deleted`` notification; True when the table changed."""
        if name in ("breakpoint-created", "breakpoint-modified"):
            bp = Breakpoint.from_answer(payload)
            if bp is not None:
                self.table[bp.number] = bp
            return bp is not None
        if name == "breakpoint-deleted":
            return self.table.pop(to_int(payload.get("id"), -1) or -1, None) is not None
        return False

    async def insert(self, location: str, condition: str | None = None, *, temporary: bool = False) -> Breakpoint:
        """Insert a breakpoint (pending if need be); a CUDA condition refused before the kernel
        is loaded is kept in :attr:`deferred`. MIError when gdb refuses it or its answer holds
        no breakpoint number."""
        flags = [Flag("-f")] + ([Flag("-t")] if temporary else [])
        if condition:
            try:
                return await self._insert(*flags, Flag("-c"), condition, location)
            except MIError as exc:
                if not _needs_kernel(exc.message):
                    raise
        bp = await self._insert(*flags, location)
        if condition:
            await self._defer(bp.number, condition)
        return bp

    async def add(self, spec: BreakpointSpec) -> Breakpoint:
        """Insert ``spec`` (see :meth:`insert`) into the table too."""
        bp = await self.insert(spec.location, spec.condition)
        self.table[bp.number] = bp
        return bp

    async def _insert(self, *args: str | Flag) -> Breakpoint:
        """``-break-insert ARGS``: the breakpoint from its answer, else from the
        ``=breakpoint-created`` that came before it; MIError quoting gdb's raw answer if neither."""
        created: list[Breakpoint] = []
        lines: list[ev.RawLine] = []
        said: list[str] = []

        def on_event(event: ev.Event) -> None:
            if isinstance(event, ev.Notify) and event.name == "breakpoint-created":
                bp = Breakpoint.from_answer(event.payload)
                if bp is not None:
                    created.append(bp)
            elif isinstance(event, ev.Stream) and event.kind in ("log", "console"):
                said.append(event.text.strip())

        unsubscribe = (self.session.subscribe(on_event), self.session.subscribe_raw(lines.append))
        try:
            payload = await self.session.command("-break-insert", *args)
        finally:
            for stop in unsubscribe:
                stop()
        bp = Breakpoint.from_answer(payload) or (created[-1] if created else None)
        if bp is None:
            sent = next((line.text for line in lines if line.direction == "in"), "-break-insert")
            # cuda-gdb answers ^done without a breakpoint when a condition names threadIdx before
            # the kernel is loaded ("No symbol ... Make conditional breakpoint pending ...?
            # [answered N; input not from terminal]"): its own words make the error message.
            reason = " ".join(text for text in said if text)
            raise MIError(
                f"-break-insert gave no breakpoint number: {reason + ' ' if reason else ''}"
                f"(gdb answered: {_answer(sent, lines)})",
                sent,
            )
        return bp

    async def set_condition(self, number: int, condition: str) -> None:
        try:
            await self.session.command("-break-condition", number, condition)
            self.deferred.pop(number, None)
        except MIError as exc:
            if not _needs_kernel(exc.message):
                raise
            await self._defer(number, condition)
        self._update(number, condition=condition or None)

    async def _defer(self, number: int, condition: str) -> None:
        self.deferred[number] = condition
        if not self.launch_armed:
            try:
                await self.session.command("-gdb-set", *_BREAK_ON_LAUNCH, Flag("application"))
                self.launch_armed = True
            except MIError:
                pass  # not cuda-gdb: the condition is applied at the breakpoint's first hit

    async def delete(self, number: int) -> None:
        await self.session.command("-break-delete", number)
        self.deferred.pop(number, None)
        self.table.pop(number, None)

    async def enable(self, number: int, enabled: bool) -> None:
        await self.session.command("-break-enable" if enabled else "-break-disable", number)
        self._update(number, enabled=enabled)

    def _update(self, number: int, **changes: Any) -> None:
        if number in self.table:
            self.table[number] = replace(self.table[number], **changes)

    async def should_skip(self, stop: StopEvent) -> bool:
        """At a stop while conditions are deferred: apply them if the stop is in device code.
        True when the caller should resume: the stop is the launch stop armed for this, or a
        breakpoint hit whose stopping thread fails the condition just applied."""
        if not self.deferred or stop.exited:
            return False
        armed = self.launch_armed
        condition = self.deferred.get(stop.breakpoint) if stop.breakpoint is not None else None
        if stop.focus is not None:
            for number, deferred in list(self.deferred.items()):
                await self.set_condition(number, deferred)
        if armed and not self.deferred:
            await self.session.command("-gdb-set", *_BREAK_ON_LAUNCH, Flag("none"))
            self.launch_armed = False
        if armed and stop.focus is not None and stop.reason == "breakpoint-hit" and stop.breakpoint is None:
            return True
        if condition is None:
            return False
        return await holds(self.session, condition) is False


def _at(bp: Breakpoint, path: str, line: int) -> bool:
    """Whether ``bp`` (or one of its locations) is at ``path:line`` (same file name)."""
    name = os.path.basename(path)
    places = [(bp.fullname or bp.file, bp.line)] + [(loc.fullname or loc.file, loc.line) for loc in bp.locations]
    return any(f and ln == line and (f == path or os.path.basename(f) == name) for f, ln in places)
