"""Frozen data model for compute-sanitizer results.

Parsers (:mod:`cudatui.gdbbridge.sanitizer.report`) build these from the tool's XML or text output; the
runner (:mod:`cudatui.gdbbridge.sanitizer.run`) returns them; the UI only reads them. Folding
findings into groups is :mod:`.grouping`; where "Debug this finding" stops is :mod:`.culprit_stop`. Numbers are converted
once, in the parsers: addresses, sizes and program counters are ``int``, coordinates are
:class:`Dim3`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    """The first finding seen; its details stand for the group (its identity:
    :func:`~cudatui.gdbbridge.sanitizer.grouping.group_key`)."""
    count: int
    blocks: Dim3Range | None = None
    threads: Dim3Range | None = None


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
