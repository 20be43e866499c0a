"""The refresh batch: one set of MI requests per stop, assembled into one immutable StopState.

The requests are pipelined (gdb answers them in order); a request that fails is recorded in
``StopState.errors`` (a :class:`QueryFailure`) and the rest of the state is still shown. The
breakpoints come from the session's :class:`Breakpoints` table, which a ``-break-list`` that
answers replaces.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any
from collections.abc import Awaitable

from cudatui.gdbbridge.cuda.breakpoint_threads import at_breakpoint
from cudatui.gdbbridge.cuda.registers import parse_register_values, usable_register_names
from cudatui.gdbbridge.cuda.tables import (
    info, parse_devices, parse_kernels, parse_lanes, parse_sms, parse_threads, parse_warps,
)
from cudatui.gdbbridge.debugger.breakpoints import Breakpoints
from cudatui.gdbbridge.session.mi import Flag
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.models import Breakpoint, Frame, QueryFailure, Register, StopEvent, StopState, Variable
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.gdb import GdbSession


def focus_from_tables(
    devices: tuple[Any, ...], sms: tuple[Any, ...], kernels: tuple[Any, ...], warps: tuple[Any, ...], lanes: tuple[Any, ...]
) -> CudaFocus | None:
    """The current CUDA focus, from the ``current`` marks of the info tables (a GPU coredump
    marks no warp current: a lone warp is the current one)."""
    warp = next((w for w in warps if w.current), warps[0] if len(warps) == 1 else None)
    lane = next((x for x in lanes if x.current), None)
    if warp is None or lane is None:
        return None
    device = next((d for d in devices if d.current), None)
    sm = next((s for s in sms if s.current), None)
    kernel = next((k for k in kernels if k.current), None)
    return CudaFocus(
        device=device.number if device else None,
        sm=sm.number if sm else None,
        warp=warp.number,
        lane=lane.number,
        kernel=kernel.number if kernel else warp.kernel,
        grid=kernel.grid if kernel else None,
        block=warp.block,
        thread=lane.thread,
    )


WARP_ASSERT = 12
"""CUDA_EXCEPTION_12, where no warp or lane table is asked for: at that stop cuda-gdb 13.0 aborted
inside ``-cuda-info-warps`` or ``-cuda-info-lanes`` ("std::out_of_range: array::at: __n (which is
32) >= _Nm (which is 32)", SIGABRT) in five of seven H200 runs of the assert lesson (batches
11-16); the focus comes from the stop itself."""

WARP_TABLES_UNASKED = "not asked (cuda-gdb 13.0 aborts listing the lanes at a Warp Assert)"
"""Why the Warps pane, the warp watch and the culprit search are empty at a CUDA_EXCEPTION_12 stop."""


def warp_tables_unsafe(stop: StopEvent) -> bool:
    """Whether asking for the warps or lanes tables at ``stop`` may kill cuda-gdb (WARP_ASSERT)."""
    return stop.exception is not None and stop.exception.code == WARP_ASSERT


async def info_at_frame(session: GdbSession, what: str, selected_frame: int) -> dict[str, Any]:
    """``-cuda-info-<what>`` asked apart from a batch, then frame ``selected_frame`` selected again
    (:func:`reselect_frame`), whether gdb answered or refused (MIError)."""
    try:
        return await info(session, what)
    finally:
        if selected_frame:
            await reselect_frame(session, selected_frame)


async def reselect_frame(session: GdbSession, level: int) -> None:
    """Select frame ``level`` in gdb again. cuda-gdb 13.0 leaves frame 0 selected after its
    ``info cuda`` tables (recorded on the H200: ``print column`` after ``-stack-select-frame 1``
    and the tables answered "No symbol" from ``__assert_fail``), so a console command or a
    variable object would see the wrong frame. Best effort: a replay recorded without it answers
    as it was recorded."""
    try:
        await session.command("-stack-select-frame", level)
    except DebuggerGone:
        raise
    except MIError:
        pass


async def _nothing() -> dict[str, Any]:
    return {}


async def _known(breakpoints: tuple[Breakpoint, ...]) -> tuple[Breakpoint, ...]:
    return breakpoints


STEPPED = ("end-stepping-range", "function-finished")
"""The stops of a step (``next``, ``step``, ``finish``), which ask for no ``-break-list``: no
breakpoint was hit (gdb stops with ``breakpoint-hit`` at one it meets), and what changes the table
meanwhile (a pending breakpoint resolved at a library's load, a hit count) gdb also says in a
``=breakpoint-modified`` notification, which the table follows (:meth:`Breakpoints.note`). On the
H200 the list took 4.6 ms of cuda-gdb's 13-16 ms for a step's batch (batch 39)."""

CUDA_TABLES = ("devices", "sms", "kernels", "warps", "lanes", "threads")
"""The CUDA tables of a batch, in the order asked (the threads only at a new stop)."""


class StateBuilder:
    """Builds StopStates for one session; generations only grow."""

    def __init__(self, session: GdbSession, breakpoints: Breakpoints | None = None) -> None:
        self.session = session
        self.breakpoints = breakpoints or Breakpoints(session)
        """The table each state's breakpoints come from."""
        self.generation = 0
        self._register_names: dict[bool, dict[int, str]] = {}
        self._listed = False
        """Whether a ``-break-list`` answered (a step's stop keeps the table only once it was read)."""

    async def refresh(
        self, stop: StopEvent, *, selected_frame: int = 0, focus: CudaFocus | None = None, requery_focus: bool = False,
        select: bool | None = None, threads: bool = False, shown: StopState | None = None,
        leave_out: frozenset[str] = frozenset(), switch: str | None = None,
    ) -> StopState:
        """Run the batch for ``stop``. ``focus`` overrides the stop's (after a focus switch);
        ``requery_focus`` derives it from the tables (after a console command); ``select``: whether to
        select the frame in gdb (None: unless it is frame 0, which a stop selects; False: gdb has
        it selected already, after a console ``up``; True: always, as a return to frame 0 needs);
        ``threads``: read the kernels' thread table too (at a new stop), and the ranges at the
        breakpoint hit. A refused thread table is no failure of the stop: its lines are left out.
        A step's stop (:data:`STEPPED`) keeps the breakpoint table too, once one was read.
        ``shown``: the state shown at this same stop, before a frame or focus change, which cannot
        change the breakpoints (their table is kept, no ``-break-list``) nor, with the focus kept (a
        frame change), the CUDA tables (kept too: no tables, so no frame to select again after them).
        The frame's selection is pipelined with the batch (gdb answers in order). ``leave_out``: the
        parts no pane on the screen shows (:data:`~cudatui.gdbbridge.debugger.shown.PARTS`), not
        asked and named in the state's ``unasked``; the registers are asked at a CUDA exception
        anyway (its errorpc marks the faulting instruction in the advice and the SASS pane), the
        thread table at a breakpoint hit (its threads there). ``switch``: a focus switch request
        (normalized), written first in the same write as the batch, which gdb answers at the new
        focus; the focus is the switch's answer; MIError (the batch's answers dropped) when gdb
        refuses it."""
        self.generation += 1
        generation = self.generation
        if stop.exited:
            return StopState(generation, stop, breakpoints=await self._breakpoints([]))
        errors: list[QueryFailure] = []
        focus = focus or stop.focus
        in_kernel = focus is not None or requery_focus
        same_stop = shown is not None and shown.stop is stop
        same_focus = same_stop and shown is not None and shown.focus == focus and not requery_focus and switch is None
        registers = "registers" not in leave_out or stop.exception is not None
        threads_left = threads and "threads" in leave_out and stop.reason != "breakpoint-hit"
        asked = self._send_batch(stop, select=bool(select or (select is None and selected_frame)), level=selected_frame,
                                 in_kernel=in_kernel, tables=in_kernel and not same_focus, threads=threads and not threads_left,
                                 breakpoints=not same_stop and not (self._listed and stop.reason in STEPPED),
                                 registers=registers,
                                 switch=switch)
        if switch is not None:
            focus = await self._switched(asked)
        threads_failed: list[QueryFailure] = []  # no failure of the stop: the Focus pane says it
        tables = {what: self._try(asked[f"-cuda-info-{what}"], errors if what != "threads" else threads_failed, f"cuda {what}")
                  for what in CUDA_TABLES if f"-cuda-info-{what}" in asked}
        results = await asyncio.gather(
            self._try(asked["-stack-select-frame"], errors, "select frame") if "-stack-select-frame" in asked else _nothing(),
            self._try(asked["-stack-list-frames"], errors, "stack"),
            self._try(asked["-stack-list-variables"], errors, "locals"),
            self._names(in_kernel, errors, asked.get("-data-list-register-names")),
            self._try(asked["-data-list-register-values"], errors, "registers") if registers else _nothing(),
            self._breakpoints(errors, asked["-break-list"]) if "-break-list" in asked else _known(self.breakpoints.listed),
            *tables.values())
        _, frames_r, vars_r, names, regs_r, breakpoints, *table_r = results
        if tables and selected_frame:
            await reselect_frame(self.session, selected_frame)  # cuda-gdb's info cuda tables select frame 0
        t = dict(zip(tables, table_r))
        if same_focus and shown is not None:
            devices, kernels, warps, lanes = shown.devices, shown.kernels, shown.warps, shown.lanes
            sms: tuple[Any, ...] = ()
            errors.extend(e for e in shown.errors if e.what.startswith("cuda "))  # the tables' failures stand
        else:
            devices = parse_devices(t.get("devices", {}))
            sms = parse_sms(t.get("sms", {}))
            kernels = parse_kernels(t.get("kernels", {}))
            warps = parse_warps(t.get("warps", {}))
            lanes = parse_lanes(t.get("lanes", {}))
        if requery_focus or focus is None:
            focus = focus_from_tables(devices, sms, kernels, warps, lanes) or focus
        frames = tuple(
            Frame.from_mi(f, i) for i, f in enumerate(frames_r.get("stack", []) or []) if isinstance(f, dict)
        )
        ranges = parse_threads(t.get("threads", {}))
        hit = next((b for b in breakpoints if b.number == stop.breakpoint), None) \
            if stop.reason == "breakpoint-hit" and focus is not None else None
        return StopState(
            generation=generation,
            stop=stop,
            frames=frames,
            selected_frame=selected_frame,
            variables=tuple(Variable.from_mi(v) for v in vars_r.get("variables", []) or [] if isinstance(v, dict)),
            registers=parse_register_values(regs_r, names),
            focus=focus,
            devices=devices,
            kernels=kernels,
            warps=warps,
            lanes=lanes,
            breakpoints=breakpoints,
            errors=tuple(errors),
            threads=ranges,
            threads_error=threads_failed[0].message if threads_failed else WARP_TABLES_UNASKED if (
                threads and in_kernel and not same_focus and warp_tables_unsafe(stop)) else "",
            breakpoint_threads=at_breakpoint(ranges, hit) if hit is not None else (),
            unasked=frozenset(("registers",) * (not registers) + ("threads",) * (
                threads_left and in_kernel and not same_focus and not warp_tables_unsafe(stop))),
        )

    async def registers(self, in_kernel: bool) -> tuple[tuple[Register, ...], tuple[QueryFailure, ...]]:
        """The registers of the frame selected in gdb (asked apart from a batch that left them
        out), and the failures."""
        errors: list[QueryFailure] = []
        *request, values = self.session.send_batch([
            *((("-data-list-register-names", ()),) if in_kernel not in self._register_names else ()),
            ("-data-list-register-values", (Flag("--skip-unavailable"), Flag("x")))])
        names = await self._names(in_kernel, errors, request[0] if request else None)
        return parse_register_values(await self._try(values, errors, "registers"), names), tuple(errors)

    def bump(self, state: StopState, **changes: Any) -> StopState:
        """A copy of ``state`` with a new generation (for partial updates such as breakpoints)."""
        self.generation += 1
        return replace(state, generation=self.generation, **changes)

    async def _names(self, in_kernel: bool, errors: list[QueryFailure], request: Awaitable[dict[str, Any]] | None,
                     ) -> dict[int, str]:
        """The register names: known, or ``request``'s answer (asked once per kind of frame)."""
        if request is None:
            return self._register_names.get(in_kernel, {})
        payload = await self._try(request, errors, "register names")
        names = usable_register_names(str(n) for n in payload.get("register-names", []) or [])
        if names:
            self._register_names[in_kernel] = names
        return names

    @staticmethod
    async def _switched(asked: dict[str, asyncio.Future[dict[str, Any]]]) -> CudaFocus:
        """The focus the batch's ``-cuda-focus-switch`` moved to; MIError when gdb refused it (the
        rest of the batch, answered at the old focus, is read and dropped)."""
        try:
            payload = await asked["-cuda-focus-switch"]
        except (MIError, DebuggerGone):
            await asyncio.gather(*asked.values(), return_exceptions=True)
            raise
        return CudaFocus.from_mi(payload.get("CudaFocus") or {})

    def _send_batch(self, stop: StopEvent, *, select: bool, level: int, in_kernel: bool, tables: bool, threads: bool,
                    breakpoints: bool, registers: bool, switch: str | None) -> dict[str, asyncio.Future[dict[str, Any]]]:
        """Write the batch's requests now, in one write (no answer is read between them, gdb gets
        them at once), in gdb's order; each one's future by operation. Nothing is left pending if
        gdb is gone."""
        operations: list[tuple[str, tuple[str | int | Flag, ...]]] = [
            *((("-cuda-focus-switch", (switch,)),) if switch is not None else ()),
            *((("-stack-select-frame", (level,)),) if select else ()),
            ("-stack-list-frames", ()), ("-stack-list-variables", (Flag("--simple-values"),)),
            *((("-data-list-register-names", ()),) if registers and in_kernel not in self._register_names else ()),
            *((("-data-list-register-values", (Flag("--skip-unavailable"), Flag("x"))),) if registers else ()),
            *((("-break-list", ()),) if breakpoints else ()),
            *((f"-cuda-info-{what}", ()) for what in CUDA_TABLES if tables and (
                what in ("devices", "sms", "kernels") or not warp_tables_unsafe(stop) and (what != "threads" or threads))),
        ]
        futures = self.session.send_batch(operations)  # DebuggerGone: nothing pending
        return {operation: future for (operation, _), future in zip(operations, futures)}

    async def _breakpoints(self, errors: list[QueryFailure], request: Awaitable[dict[str, Any]] | None = None,
                           ) -> tuple[Breakpoint, ...]:
        failed: list[QueryFailure] = []
        payload = await self._try(request or self.session.command("-break-list"), failed, "breakpoints")
        errors.extend(failed)
        if not failed:
            table = payload.get("BreakpointTable") or {}
            self.breakpoints.listing(Breakpoint.from_records(table.get("body", []) or []))
            self._listed = True
        return self.breakpoints.listed

    @staticmethod
    async def _try(request: Awaitable[dict[str, Any]], errors: list[QueryFailure], what: str) -> dict[str, Any]:
        try:
            return await request
        except DebuggerGone:
            raise
        except MIError as exc:
            errors.append(QueryFailure(what, exc.message, exc.not_recorded))
            return {}

