"""Switching cuda-gdb's focus: a request checked and normalised, then ``-cuda-focus-switch``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Mapping

from cudatui.gdbbridge.convert import fmt_dim3
from cudatui.gdbbridge.models.cuda import CudaFocus
from cudatui.gdbbridge.models import Frame

if TYPE_CHECKING:
    from cudatui.gdbbridge.session.gdb import GdbSession

_DIM = r"\(\s*\d+\s*(?:,\s*\d+\s*){0,2}\)|\d+"
_FOCUS_SPLIT = re.compile(rf"(device|sm|warp|lane|kernel|grid|block|thread)\s+({_DIM})")


class FocusSyntaxError(ValueError):
    """A focus request that is not ``block (x,y,z) thread (x,y,z)`` / ``sm N warp W lane L`` ..."""


def normalize_focus(request: str) -> str:
    """Validate and normalise a focus request: "block 3 thread (200)" -> "block (3,0,0) thread (200,0,0)"."""
    text = " ".join(request.strip().split())
    parts = _FOCUS_SPLIT.findall(text)
    if not parts or _FOCUS_SPLIT.sub("", text).strip():
        raise FocusSyntaxError(
            f"cannot read focus {request!r}: use e.g. 'block (3,0,0) thread (200,0,0)', 'warp 2 lane 3' or 'sm 4'"
        )
    words = []
    for key, value in parts:
        if key in ("block", "thread"):
            nums = [int(x) for x in re.findall(r"\d+", value)]
            nums += [0] * (3 - len(nums))
            words.append(f"{key} {fmt_dim3((nums[0], nums[1], nums[2]))}")
        else:
            words.append(f"{key} {int(value)}")
    return " ".join(words)


@dataclass(frozen=True)
class FocusResult:
    """The focus after a switch, and the frame gdb selected there (None without one)."""

    focus: CudaFocus
    frame: Frame | None


async def switch_focus(session: GdbSession, request: str) -> FocusResult:
    """``-cuda-focus-switch`` with a validated request; returns the new focus and frame."""
    payload = await session.command("-cuda-focus-switch", normalize_focus(request))
    frame = payload.get("frame")
    return FocusResult(CudaFocus.from_mi(payload.get("CudaFocus") or {}),
                       Frame.from_mi(frame) if isinstance(frame, Mapping) else None)
