"""Typed, frozen views of debugger state, built from MI payloads in this one module.

pygdbmi hands every value over as a string; numbers, coordinates and masks are converted here,
once, so that panes only ever see ints, tuples and enums-as-strings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

Dim3 = tuple[int, int, int]

CUDA_EXCEPTIONS: dict[int, str] = {
    0: "Device Unknown Exception",
    1: "Lane Illegal Address",
    2: "Lane User Stack Overflow",
    3: "Device Hardware Stack Overflow",
    4: "Warp Illegal Instruction",
    5: "Warp Out-of-range Address",
    6: "Warp Misaligned Address",
    7: "Warp Invalid Address Space",
    8: "Warp Invalid PC",
    9: "Warp Hardware Stack Overflow",
    10: "Device Illegal Address",
    11: "Lane Misaligned Address",
    12: "Warp Assert",
    13: "Lane Syscall Error",
    14: "Warp Illegal Address",
    15: "Invalid Managed Memory Access",
    16: "Cluster Out-of-range Address",
    17: "Cluster Target Block Not Present",
    18: "Warp Stack Canary Check Failed",
    19: "Device Stack Canary Check Failed",
}
"""cuda-gdb's CUDA_EXCEPTION_N names (cuda-gdb manual, "Exceptions")."""

RECOVERABLE_EXCEPTIONS = frozenset({12})
"""Only a Warp Assert lets the program continue; after the others the context is lost."""


def to_int(text: Any, default: int | None = None) -> int | None:
    """Parse an MI number ("12", "0x1f", "-1"); anything else gives ``default``."""
    if isinstance(text, int):
        return text
    if not isinstance(text, str):
        return default
    try:
        return int(text.strip(), 0)
    except ValueError:
        return default


def to_dim3(text: Any) -> Dim3 | None:
    """Parse "(3,0,0)" into (3, 0, 0); "(invalid,...)" or junk gives None."""
    if not isinstance(text, str):
        return None
    parts = text.strip().strip("()").split(",")
    if len(parts) != 3:
        return None
    values = [to_int(p) for p in parts]
    if any(v is None for v in values):
        return None
    return (values[0], values[1], values[2])  # type: ignore[return-value]


def fmt_dim3(d: Dim3 | None) -> str:
    """(3, 0, 0) -> "(3,0,0)", the form cuda-gdb prints and accepts."""
    return "(?)" if d is None else f"({d[0]},{d[1]},{d[2]})"


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

    @classmethod
    def from_mi(cls, d: Mapping[str, Any], level: int = 0) -> "Frame":
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
        )

    @property
    def where(self) -> str:
        loc = f"{self.file}:{self.line}" if self.file and self.line else (hex(self.addr) if self.addr else "")
        return f"{self.func} at {loc}" if loc else self.func


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
    def from_mi(cls, d: Mapping[str, Any]) -> "BreakpointLocation":
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
    def from_mi(cls, d: Mapping[str, Any]) -> "Breakpoint":
        locs = tuple(BreakpointLocation.from_mi(x) for x in d.get("locations", []) or [] if isinstance(x, Mapping))
        first = next((loc for loc in locs if loc.enabled and loc.line), None)
        return cls(
            number=to_int(d.get("number"), 0) or 0,
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


@dataclass(frozen=True)
class Variable:
    """A local, argument or watch expression and its value as gdb formats it."""

    name: str
    value: str
    type: str = ""
    is_arg: bool = False

    @classmethod
    def from_mi(cls, d: Mapping[str, Any]) -> "Variable":
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
        """"shared", "register", "generic", "parameter" ... from cuda-gdb's type prefix."""
        for word in self.type.replace("*", " ").split():
            if word.startswith("@"):
                return word[1:]
        return None


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
class CudaFocus:
    """The CUDA thread the debugger looks at, hardware and software coordinates."""

    device: int | None
    sm: int | None
    warp: int | None
    lane: int | None
    kernel: int | None
    grid: int | None
    block: Dim3 | None
    thread: Dim3 | None

    @classmethod
    def from_mi(cls, d: Mapping[str, Any]) -> "CudaFocus":
        return cls(
            device=to_int(d.get("device")),
            sm=to_int(d.get("sm")),
            warp=to_int(d.get("warp")),
            lane=to_int(d.get("lane")),
            kernel=to_int(d.get("kernel")),
            grid=to_int(d.get("grid")),
            block=to_dim3(d.get("blockIdx")),
            thread=to_dim3(d.get("threadIdx")),
        )

    @property
    def software(self) -> str:
        return f"block {fmt_dim3(self.block)} thread {fmt_dim3(self.thread)}"

    @property
    def hardware(self) -> str:
        return f"device {self.device} sm {self.sm} warp {self.warp} lane {self.lane}"


@dataclass(frozen=True)
class Device:
    number: int
    name: str
    description: str
    pci_bus: str
    sm_type: str
    num_sms: int
    warps_per_sm: int
    lanes_per_warp: int
    max_regs: int
    current: bool


@dataclass(frozen=True)
class Kernel:
    number: int
    device: int
    grid: int
    status: str
    grid_dim: Dim3 | None
    block_dim: Dim3 | None
    name: str
    invocation: str
    current: bool

    @property
    def total_threads(self) -> int:
        if not self.grid_dim or not self.block_dim:
            return 0
        g, b = self.grid_dim, self.block_dim
        return g[0] * g[1] * g[2] * b[0] * b[1] * b[2]


@dataclass(frozen=True)
class Context:
    """A CUDA context (``-cuda-info-contexts``)."""

    context: int
    device: int
    state: str
    current: bool


@dataclass(frozen=True)
class LaunchTraceEntry:
    """One level of the kernel launch trace (``-cuda-info-launch-trace``); level 0 is the focus."""

    level: int
    kernel: int
    device: int
    grid: int
    status: str
    grid_dim: Dim3 | None
    block_dim: Dim3 | None
    name: str
    invocation: str
    current: bool


@dataclass(frozen=True)
class BlockRange:
    """A coalesced run of blocks in the same state (cuda-gdb's coalesced table row)."""

    kernel: int
    first: Dim3 | None
    last: Dim3 | None
    count: int
    state: str
    current: bool


@dataclass(frozen=True)
class ThreadRange:
    """A coalesced run of threads at the same pc and line."""

    kernel: int
    first_block: Dim3 | None
    first_thread: Dim3 | None
    last_block: Dim3 | None
    last_thread: Dim3 | None
    count: int
    pc: int | None
    file: str | None
    line: int | None
    current: bool


@dataclass(frozen=True)
class Sm:
    number: int
    active_warps_mask: int
    current: bool


@dataclass(frozen=True)
class Warp:
    number: int
    active_mask: int
    divergent_mask: int
    pc: int | None
    kernel: int | None
    block: Dim3 | None
    first_thread: Dim3 | None
    current: bool

    def lane_active(self, lane: int) -> bool:
        return bool(self.active_mask >> lane & 1)

    def lane_divergent(self, lane: int) -> bool:
        return bool(self.divergent_mask >> lane & 1)


@dataclass(frozen=True)
class Lane:
    number: int
    state: str
    pc: int | None
    thread: Dim3 | None
    exception: str | None
    current: bool


@dataclass(frozen=True)
class Instruction:
    """One disassembled (SASS) instruction, with the source line it belongs to if known."""

    address: int
    function: str
    offset: int
    text: str
    line: int | None = None
    file: str | None = None


@dataclass(frozen=True)
class CudaException:
    """A CUDA exception stop: CUDA_EXCEPTION_<code>, its name and whether the program survives."""

    code: int
    name: str

    @property
    def recoverable(self) -> bool:
        return self.code in RECOVERABLE_EXCEPTIONS

    @property
    def signal_name(self) -> str:
        return f"CUDA_EXCEPTION_{self.code}"

    @classmethod
    def from_signal(cls, signal_name: str | None, meaning: str | None) -> "CudaException | None":
        if not signal_name or not signal_name.startswith("CUDA_EXCEPTION_"):
            return None
        code = to_int(signal_name.rsplit("_", 1)[1])
        if code is None:
            return None
        return cls(code=code, name=meaning or CUDA_EXCEPTIONS.get(code, "Unknown CUDA exception"))


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
    def from_mi(cls, d: Mapping[str, Any]) -> "StopEvent":
        frame = d.get("frame")
        focus = d.get("CudaFocus")
        return cls(
            reason=str(d.get("reason", "unknown")),
            frame=Frame.from_mi(frame) if isinstance(frame, Mapping) else None,
            focus=CudaFocus.from_mi(focus) if isinstance(focus, Mapping) else None,
            signal=d.get("signal-name"),
            signal_meaning=d.get("signal-meaning"),
            exception=CudaException.from_signal(d.get("signal-name"), d.get("signal-meaning")),
            breakpoint=to_int(d.get("bkptno")),
            exit_code=to_int(d.get("exit-code"), 0 if d.get("reason") == "exited-normally" else None),
            thread_id=to_int(d.get("thread-id")),
        )

    @property
    def exited(self) -> bool:
        return self.reason.startswith("exited")


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
    errors: tuple[str, ...] = field(default=())

    @property
    def frame(self) -> Frame | None:
        if 0 <= self.selected_frame < len(self.frames):
            return self.frames[self.selected_frame]
        return self.stop.frame

    @property
    def in_kernel(self) -> bool:
        return self.focus is not None and self.focus.kernel is not None
