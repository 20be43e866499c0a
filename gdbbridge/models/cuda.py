"""Typed, frozen views of CUDA state: focus, devices, kernels, block/thread ranges, warps,
lanes, SASS instructions and CUDA exceptions (the stop, frame and variable views are in
:mod:`cudatui.gdbbridge.models`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from cudatui.gdbbridge.convert import Dim3, fmt_dim3, to_dim3, to_int

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

_FOCUS_SENTENCE = re.compile(
    r"(?:Current focus set to|Switching focus to) CUDA kernel (?P<kernel>\d+), grid (?P<grid>\d+), "
    r"block (?P<block>\(\d+,\d+,\d+\)), thread (?P<thread>\(\d+,\d+,\d+\)), device (?P<device>\d+), "
    r"sm (?P<sm>\d+), warp (?P<warp>\d+), lane (?P<lane>\d+)\]"
)


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
    def from_mi(cls, d: Mapping[str, Any]) -> CudaFocus:
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

    @classmethod
    def from_console(cls, text: str) -> CudaFocus | None:
        """The focus cuda-gdb announced in console text ("[Current focus set to CUDA kernel 0,
        grid 1, block (1,0,0), thread (5,0,0), device 0, sm 126, warp 0, lane 5]", also
        "Switching focus to"), the last one if several; None if there is none."""
        found = list(_FOCUS_SENTENCE.finditer(text))
        if not found:
            return None
        m = found[-1]
        return cls.from_mi({**m.groupdict(), "blockIdx": m["block"], "threadIdx": m["thread"]})

    @property
    def software(self) -> str:
        return f"block {fmt_dim3(self.block)} thread {fmt_dim3(self.thread)}"

    @property
    def hardware(self) -> str:
        return f"device {self.device} sm {self.sm} warp {self.warp} lane {self.lane}"


@dataclass(frozen=True)
class Device:
    """A GPU (``-cuda-info-devices``)."""

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
    """A running kernel (``-cuda-info-kernels``)."""

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
    """A streaming multiprocessor and its active warps (``-cuda-info-sms``)."""

    number: int
    active_warps_mask: int
    current: bool


@dataclass(frozen=True)
class Warp:
    """A warp on the focused SM and its lane masks (``-cuda-info-warps``)."""

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
    """A lane of the focused warp (``-cuda-info-lanes``)."""

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
    def from_signal(cls, signal_name: str | None, meaning: str | None) -> CudaException | None:
        if not signal_name or not signal_name.startswith("CUDA_EXCEPTION_"):
            return None
        code = to_int(signal_name.rsplit("_", 1)[1])
        if code is None:
            return None
        return cls(code=code, name=meaning or CUDA_EXCEPTIONS.get(code, "Unknown CUDA exception"))

    @classmethod
    def from_name(cls, name: str) -> CudaException | None:
        """The exception cuda-gdb names in words (a GPU coredump's "CUDA Exception: Warp Illegal
        Address"); None for a name it does not list."""
        code = next((code for code, known in CUDA_EXCEPTIONS.items() if known == name.strip()), None)
        return None if code is None else cls(code=code, name=CUDA_EXCEPTIONS[code])
