"""A host stack for display: library frames folded, and the note that says when the line shown
is a sync point rather than the kernel's launch.

Kernel launches are asynchronous: when a kernel faults or hits a breakpoint, the host has
usually run on to the next call that waits for the GPU (``y.sum().item()``), and that is the
line the host stack shows. Measured on the H200 (docs/gpu-runs/batch7.md): without launch
blocking the stack of scripts/own_programs/torch_index.py was at line 7 (the ``.item()``),
with ``CUDA_LAUNCH_BLOCKING=1`` at line 6 (``y = x[idx]``, the launch).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from collections.abc import Mapping, Sequence

from cudatui.gdbbridge.i18n import tr
from cudatui.gdbbridge.models.host import HostFrame, HostStack

SYNC_CALLS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (".item()", re.compile(r"\.item\(\s*\)")),
    (".tolist()", re.compile(r"\.tolist\(\s*\)")),
    (".cpu()", re.compile(r"\.cpu\(")),
    (".numpy()", re.compile(r"\.numpy\(")),
    ('.to("cpu")', re.compile(r"""\.to\(\s*['"]cpu['"]""")),
    ("synchronize()", re.compile(r"\bsynchronize\(")),
    ("cudaDeviceSynchronize()", re.compile(r"\bcudaDeviceSynchronize\(")),
    ("asnumpy()", re.compile(r"\basnumpy\(")),
)
"""Calls that wait for the GPU, as (what the note names, how it is found in a line of code):
a tensor's value copied to the host (PyTorch ``.item()``, ``.tolist()``, ``.cpu()``,
``.numpy()``, ``.to("cpu")``, CuPy ``asnumpy()``) and explicit waits
(``torch.cuda.synchronize()``, a stream's or event's ``.synchronize()``,
``cudaDeviceSynchronize()``). ``print(tensor)`` waits too but is not named: ``print(`` alone
says nothing about what is printed."""


@dataclass(frozen=True)
class Folded:
    """A run of ``count`` consecutive library frames shown as one entry, naming their
    top-level packages in the order they appear."""

    count: int
    packages: tuple[str, ...]

    @property
    def text(self) -> str:
        """``… 3 frames in torch`` (``… 1 frame in sched``; ``… 5 frames in torch, functools``)."""
        return f"… {self.count} frame{'' if self.count == 1 else 's'} in {', '.join(self.packages)}"


def fold(frames: Sequence[HostFrame]) -> tuple[HostFrame | Folded, ...]:
    """``frames`` in their order, each run of library frames replaced by one :class:`Folded`."""
    out: list[HostFrame | Folded] = []
    run: list[HostFrame] = []
    for frame in [*frames, None]:
        if frame is not None and not frame.user:
            run.append(frame)
            continue
        if run:
            out.append(Folded(len(run), tuple(dict.fromkeys(f.package for f in run))))
            run = []
        if frame is not None:
            out.append(frame)
    return tuple(out)


def sync_point(stack: HostStack, env: Mapping[str, str], *, can_rerun: bool = True) -> str | None:
    """A note for the user frame shown (:attr:`HostStack.user_frame`) when launch blocking is
    off in ``env`` (the debuggee's environment): the kernel was launched EARLIER than where the
    host is now, and how to see the launch line (unless it cannot be re-run: an attached
    process). None with ``CUDA_LAUNCH_BLOCKING=1`` (the frame shown is the launch) or when no
    user frame was read."""
    if env.get("CUDA_LAUNCH_BLOCKING") == "1":
        return None
    frame = stack.user_frame
    if frame is None:
        return None
    where = tr("line {line} of {file}").format(line=frame.line, file=os.path.basename(frame.file))
    rerun = tr("Re-run with CUDA_LAUNCH_BLOCKING=1 to stop at the launch line.") if can_rerun else ""
    call = next((label for label, pattern in SYNC_CALLS if pattern.search(frame.code)), None)
    if call is not None:
        return tr("The host is waiting for the GPU at {where} ({call}): the kernel that stopped was launched EARLIER, "
                  "by a line before it or earlier in this one. {rerun}").format(where=where, call=call, rerun=rerun).rstrip()
    return tr("Kernel launches are asynchronous (CUDA_LAUNCH_BLOCKING is not 1): the host ran on to {where}; the "
              "kernel that stopped was launched EARLIER, there or before. {rerun}").format(where=where, rerun=rerun).rstrip()
