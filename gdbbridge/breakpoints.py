"""Breakpoints, including CUDA-thread conditions that cuda-gdb can only take after the kernel
module is loaded (before that, ``-break-insert -c "threadIdx.x == 5"`` fails with
"No symbol threadIdx in current context").

Such a condition is kept here as *deferred*: the breakpoint is inserted pending without it,
and the condition is applied at the first stop on that breakpoint. If the condition is false
for the stopping thread, the caller resumes (``should_skip`` tells it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import events as ev
from .mi import Flag
from .models import Breakpoint, StopEvent
from .session import GdbSession, MIError


def split_condition(spec: str) -> tuple[str, str | None]:
    """``"bugs.cu:13 if threadIdx.x == 5"`` -> (``"bugs.cu:13"``, ``"threadIdx.x == 5"``)."""
    location, sep, condition = spec.partition(" if ")
    return location.strip(), (condition.strip() or None) if sep else None


def _answer(sent: str, lines: list[ev.RawLine]) -> str:
    """gdb's raw result line for the command ``sent`` (matched by token), cut to 2000 characters."""
    token = sent[: len(sent) - len(sent.lstrip("0123456789"))]
    answer = next((line.text for line in lines if line.direction == "out" and line.text.startswith(f"{token}^")), "")
    return (answer or "(no result line seen)")[:2000]


def _needs_kernel(message: str) -> bool:
    return "No symbol" in message and ("threadIdx" in message or "blockIdx" in message or "blockDim" in message)


@dataclass
class Breakpoints:
    """Inserts breakpoints and carries deferred CUDA conditions until they can be applied."""

    session: GdbSession
    deferred: dict[int, str] = field(default_factory=dict)

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
            self.deferred[bp.number] = condition
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
            self.deferred[number] = condition

    async def delete(self, number: int) -> None:
        await self.session.command("-break-delete", number)
        self.deferred.pop(number, None)

    async def enable(self, number: int, enabled: bool) -> None:
        await self.session.command("-break-enable" if enabled else "-break-disable", number)

    async def should_skip(self, stop: StopEvent) -> bool:
        """At a stop on a breakpoint with a deferred condition: apply it now, and tell whether
        the stopping thread fails it (then the caller continues)."""
        number = stop.breakpoint
        if number is None or number not in self.deferred:
            return False
        condition = self.deferred[number]
        await self.set_condition(number, condition)
        try:
            payload = await self.session.command("-data-evaluate-expression", f"({condition}) != 0")
        except MIError:
            return False
        return str(payload.get("value", "1")).strip() in ("0", "false")
