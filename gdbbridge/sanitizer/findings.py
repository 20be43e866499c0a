"""Frozen data model for compute-sanitizer results.

Parsers (:mod:`cudatui.gdbbridge.sanitizer.report`) build these from the tool's XML or text output; the
runner (:mod:`cudatui.gdbbridge.sanitizer.run`) returns them; the UI only reads them. Numbers are converted
once, in the parsers: addresses, sizes and program counters are ``int``, coordinates are
:class:`Dim3`.
"""

from __future__ import annotations

import dataclasses
import posixpath
from dataclasses import dataclass, field
from collections.abc import Iterable

TOOLS: tuple[str, ...] = ("memcheck", "racecheck", "initcheck", "synccheck")
"""The compute-sanitizer tools cudatui runs."""

# Finding kinds.
INVALID_ACCESS = "invalid_access"
UNINITIALIZED_READ = "uninitialized_read"
RACE = "race"
HAZARD = "hazard"
LEAK = "leak"
ASSERT = "assert"
API_ERROR = "api_error"
BARRIER = "barrier"
OTHER = "other"

_SYSTEM_SOURCES = ("cuda_runtime.h", "device_functions.h", ".cudafe1.stub.c")
_OPEN, _CLOSE = "(<[", ")>]"


def function_name(signature: str | None) -> str | None:
    """The bare (qualified) function name of a signature, for grouping.

    The text report names kernels ``k(int *)``, the assertion message ``void k(const int *)``,
    the XML report just ``k``: all three give ``k``. The parameter list and the return type are
    dropped; namespaces and template arguments are kept, so instantiations stay apart.
    """
    if not signature:
        return signature
    text = signature.strip()
    if text.endswith(")"):
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += (text[i] in _CLOSE) - (text[i] in _OPEN)
            if depth == 0:
                text = text[:i].rstrip() or text
                break
    depth, start = 0, 0
    for i, char in enumerate(text):
        depth += (char in _OPEN) - (char in _CLOSE)
        if char == " " and depth == 0:
            start = i + 1
    return text[start:] or text


def _basename(path: str | None) -> str | None:
    return posixpath.basename(path) if path else path


@dataclass(frozen=True)
class Dim3:
    """A CUDA ``dim3`` coordinate (blockIdx or threadIdx)."""

    x: int
    y: int = 0
    z: int = 0

    def __str__(self) -> str:
        return f"({self.x},{self.y},{self.z})"


@dataclass(frozen=True)
class Dim3Range:
    """The smallest box holding a set of coordinates: min and max per dimension."""

    low: Dim3
    high: Dim3

    def __str__(self) -> str:
        if self.low == self.high:
            return str(self.low)
        return f"{self.low}..{self.high}"

    def widen(self, point: Dim3) -> Dim3Range:
        """Return the range grown to include ``point``."""
        return Dim3Range(
            Dim3(min(self.low.x, point.x), min(self.low.y, point.y), min(self.low.z, point.z)),
            Dim3(max(self.high.x, point.x), max(self.high.y, point.y), max(self.high.z, point.z)),
        )


@dataclass(frozen=True)
class HostFrame:
    """One host stack frame; Python frames (``<module> in script.py:5``) have no module/pc."""

    function: str
    file: str | None = None
    line: int | None = None
    module: str | None = None
    pc: int | None = None

    @property
    def is_python(self) -> bool:
        """True for a frame of the Python script itself."""
        return bool(self.file and self.file.endswith(".py"))

    def __str__(self) -> str:
        text = self.function or "??"
        if self.file:
            text += f" in {self.file}:{self.line}" if self.line is not None else f" in {self.file}"
        if self.module:
            text += f" ({self.module})"
        return text


@dataclass(frozen=True)
class DeviceFrame:
    """One device stack frame: function + offset, and the source line when known."""

    function: str
    offset: int | None = None
    file: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        text = self.function + (f"+{self.offset:#x}" if self.offset is not None else "")
        if self.file:
            text += f" in {self.file}:{self.line}"
        return text


@dataclass(frozen=True)
class AllocationDistance:
    """Where a bad access lies relative to the nearest allocation."""

    bytes: int
    direction: str
    """"before", "after" or "inside"."""
    allocation_address: int | None = None
    allocation_size: int | None = None


@dataclass(frozen=True)
class RaceAccess:
    """One side of a racecheck hazard or race report."""

    access: str
    """"read", "write" or "atomic"."""
    function: str | None = None
    file: str | None = None
    line: int | None = None
    pc: int | None = None
    thread: Dim3 | None = None
    hazards: int | None = None
    """Hazard count that racecheck's analysis mode prints for this access pair."""


@dataclass(frozen=True)
class Finding:
    """One error record of compute-sanitizer, whatever the tool."""

    tool: str
    kind: str
    message: str
    severity: str = "error"
    access: str | None = None
    size: int | None = None
    address_space: str | None = None
    address: int | None = None
    error: str | None = None
    distance: AllocationDistance | None = None
    kernel: str | None = None
    file: str | None = None
    line: int | None = None
    pc: int | None = None
    block: Dim3 | None = None
    thread: Dim3 | None = None
    host_backtrace: tuple[HostFrame, ...] = ()
    backtrace_saved_at: str | None = None
    device_backtrace: tuple[DeviceFrame, ...] = ()
    accesses: tuple[RaceAccess, ...] = ()
    hazard_type: str | None = None
    api_call: str | None = None
    error_code: int | None = None
    assertion: str | None = None
    raw: str = ""

    @property
    def source_location(self) -> tuple[str, int] | None:
        """The best source line to show: the device line, else the first user host frame."""
        if self.file and self.line is not None:
            return self.file, self.line
        for frame in self.host_backtrace:
            if frame.file and frame.line is not None and not frame.file.endswith(_SYSTEM_SOURCES):
                return frame.file, frame.line
        return None

    @property
    def function(self) -> str | None:
        """The kernel or device function's bare name (``kernel`` keeps the full signature)."""
        return function_name(self.kernel)

    @property
    def python_frame(self) -> HostFrame | None:
        """The innermost Python frame of the host backtrace (the Python line that launched)."""
        return next((f for f in self.host_backtrace if f.is_python), None)

    @property
    def script_frame(self) -> HostFrame | None:
        """The deepest frame in the program's own script: the outermost Python frame's file.

        With a helper module between the script and the launch (``_launch in ops.py``), this is
        the script line that called the helper, where :attr:`python_frame` is the helper's line.
        """
        python = [f for f in self.host_backtrace if f.is_python]
        if not python:
            return None
        return next(f for f in python if f.file == python[-1].file)

    @property
    def hazard_count(self) -> int | None:
        """Total hazards of a racecheck analysis report, if it printed counts."""
        counts = [a.hazards for a in self.accesses if a.hazards is not None]
        return sum(counts) if counts else None


@dataclass(frozen=True)
class FindingGroup:
    """Identical findings (same tool, kind, access, size, kernel, file, line) folded together."""

    first: Finding
    """The first finding seen; its details stand for the group."""
    count: int
    blocks: Dim3Range | None = None
    threads: Dim3Range | None = None

    @property
    def key(self) -> tuple[object, ...]:
        """The grouping key (see :func:`group_key`)."""
        return group_key(self.first)


def group_key(finding: Finding) -> tuple[object, ...]:
    """Grouping identity of a finding.

    The documented fields plus the hazard type and API error, so that different CUDA API
    failures or a WAW next to a RAW hazard on the same line stay apart, and the other sides of
    a race (their access and line), so that one write racing with reads on two lines gives two
    groups. Text and XML reports give the same key: the kernel is its bare
    :func:`function_name` and the file its base name (text prints ``oob.cu``, XML
    ``/src/oob.cu``). Findings without a device line (leaks, API errors) are told apart by
    their host source line, so leaks of one size from two allocation sites stay two groups.
    """
    where = finding.source_location
    return (
        finding.tool,
        finding.kind,
        finding.access,
        finding.size,
        finding.function,
        _basename(where[0]) if where else None,
        where[1] if where else None,
        finding.hazard_type,
        finding.api_call,
        finding.error if finding.kind == API_ERROR else None,
        tuple((a.access, _basename(a.file), a.line) for a in finding.accesses[1:]),
    )


@dataclass(frozen=True)
class SanitizerSummary:
    """The tool's closing lines (text output only; XML carries no summary)."""

    error_count: int | None = None
    not_printed: int | None = None
    hazards_displayed: int | None = None
    race_errors: int | None = None
    race_warnings: int | None = None
    leaked_bytes: int | None = None
    leaked_allocations: int | None = None
    target_error: bool = False
    coredump_path: str | None = None


@dataclass(frozen=True)
class SanitizerReport:
    """Grouped findings of one run or one saved report."""

    tool: str | None
    groups: tuple[FindingGroup, ...]
    summary: SanitizerSummary = field(default_factory=SanitizerSummary)
    source: str = "text"
    """"xml" or "text": where the findings came from."""
    truncated: bool = False
    """True when an XML report ended early; the complete records before the cut are kept."""

    @property
    def finding_count(self) -> int:
        """Number of individual findings across all groups."""
        return sum(g.count for g in self.groups)


def debug_breakpoint_for(finding: Finding | FindingGroup, side: int | None = None) -> tuple[str, str]:
    """Breakpoint location ``"file:line"`` and cuda-gdb condition that stop on the culprit thread.

    ``side`` picks one access of a race (an index into :attr:`Finding.accesses`): its line and
    its thread, in the hazard's block; None is the finding's own place (a race's first side).
    ``x`` is always constrained (block 0 is a real block); ``y`` and ``z`` only when non-zero,
    because a finding does not tell whether its grid has those dimensions. The condition is ""
    when the finding has no block/thread (a leak's allocation site, a race of racecheck's
    analysis report). Raises ``ValueError`` when the finding (or the side) has no source line
    to stop at, or has no such side.
    """
    if isinstance(finding, FindingGroup):
        finding = finding.first
    where, thread = finding.source_location, finding.thread
    if side is not None:
        if not 0 <= side < len(finding.accesses):
            raise ValueError(f"{finding.message}: no access number {side + 1}")
        access = finding.accesses[side]
        where = (access.file, access.line) if access.file and access.line is not None else None
        thread = access.thread
    if where is None:
        raise ValueError(f"{finding.message}: no source line to set a breakpoint on")
    terms: list[str] = []
    for name, dim in (("blockIdx", finding.block), ("threadIdx", thread)):
        if dim is None:
            continue
        for axis in ("x", "y", "z"):
            value = getattr(dim, axis)
            if axis == "x" or value:
                terms.append(f"{name}.{axis} == {value}")
    return f"{where[0]}:{where[1]}", " && ".join(terms)


def debug_sides(finding: Finding | FindingGroup) -> tuple[int, ...]:
    """The accesses of a race that "Debug this finding" can stop at, as indexes into
    :attr:`Finding.accesses`: those with a source line, the first of any that would give the
    same breakpoint (two sides on one line without threads are one place to stop). Empty for
    a finding that is not a race; one index when both sides stop at the same place."""
    if isinstance(finding, FindingGroup):
        finding = finding.first
    seen: dict[tuple[str, str], int] = {}
    for index, access in enumerate(finding.accesses):
        if access.file and access.line is not None:
            seen.setdefault(debug_breakpoint_for(finding, index), index)
    return tuple(seen.values())


class FindingGrouper:
    """Folds findings into groups as they arrive; memory grows with distinct groups only.

    Groups keep first-seen order, so a live table can append rows and update counts.
    """

    def __init__(self) -> None:
        self._groups: dict[tuple[object, ...], FindingGroup] = {}
        self.finding_count = 0

    def add(self, finding: Finding) -> None:
        """Count ``finding`` into its group (creating the group on first sight)."""
        self.finding_count += 1
        key = group_key(finding)
        group = self._groups.get(key)
        if group is None:
            self._groups[key] = FindingGroup(
                first=finding,
                count=1,
                blocks=Dim3Range(finding.block, finding.block) if finding.block else None,
                threads=Dim3Range(finding.thread, finding.thread) if finding.thread else None,
            )
            return
        self._groups[key] = FindingGroup(
            first=group.first,
            count=group.count + 1,
            blocks=_widen(group.blocks, finding.block),
            threads=_widen(group.threads, finding.thread),
        )

    def groups(self) -> tuple[FindingGroup, ...]:
        """The groups so far, in first-seen order."""
        return tuple(self._groups.values())


def _widen(current: Dim3Range | None, point: Dim3 | None) -> Dim3Range | None:
    if point is None:
        return current
    return Dim3Range(point, point) if current is None else current.widen(point)


def group_findings(findings: Iterable[Finding]) -> tuple[FindingGroup, ...]:
    """Group identical findings (see :func:`group_key`), in first-seen order."""
    grouper = FindingGrouper()
    for finding in findings:
        grouper.add(finding)
    return grouper.groups()


def apply_assertion(finding: Finding, assertions: dict[tuple[Dim3, Dim3], tuple[str, int, str, str]]) -> Finding:
    """Give a device-assert finding the file:line and kernel of the assertion message it printed."""
    if finding.kind != ASSERT or finding.block is None or finding.thread is None:
        return finding
    hit = assertions.get((finding.block, finding.thread))
    if hit is None:
        return finding
    file, line, func, cond = hit
    return dataclasses.replace(finding, file=file, line=line, kernel=func, pc=None, assertion=cond)
