"""Breakpoints, including CUDA-thread conditions that cuda-gdb can only take after the kernel
module is loaded (before that, ``-break-insert -c "threadIdx.x == 5"`` fails with
"No symbol threadIdx in current context").

Such a condition is kept here as *deferred*: the breakpoint is inserted pending without it,
and the condition is applied at the first stop on that breakpoint. If the condition is false
for the stopping thread, the caller resumes (``should_skip`` tells it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .mi import Flag
from .models import Breakpoint, StopEvent
from .session import GdbSession, MIError


def split_condition(spec: str) -> tuple[str, str | None]:
    """``"bugs.cu:13 if threadIdx.x == 5"`` -> (``"bugs.cu:13"``, ``"threadIdx.x == 5"``)."""
    location, sep, condition = spec.partition(" if ")
    return location.strip(), (condition.strip() or None) if sep else None


def _needs_kernel(message: str) -> bool:
    return "No symbol" in message and ("threadIdx" in message or "blockIdx" in message or "blockDim" in message)


@dataclass
class Breakpoints:
    """Inserts breakpoints and carries deferred CUDA conditions until they can be applied."""

    session: GdbSession
    deferred: dict[int, str] = field(default_factory=dict)

    async def insert(self, location: str, condition: str | None = None, *, temporary: bool = False) -> Breakpoint:
        flags = [Flag("-f")] + ([Flag("-t")] if temporary else [])
        if condition:
            try:
                payload = await self.session.command("-break-insert", *flags, Flag("-c"), condition, location)
                return Breakpoint.from_mi(payload.get("bkpt") or {})
            except MIError as exc:
                if not _needs_kernel(exc.message):
                    raise
        payload = await self.session.command("-break-insert", *flags, location)
        bp = Breakpoint.from_mi(payload.get("bkpt") or {})
        if condition:
            self.deferred[bp.number] = condition
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
