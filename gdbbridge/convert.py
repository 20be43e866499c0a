"""MI values to Python values: pygdbmi gives every value as a string; numbers and CUDA
coordinates are converted here, once."""

from __future__ import annotations

from typing import Any

Dim3 = tuple[int, int, int]


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


def to_exit_code(text: Any) -> int | None:
    """gdb's ``exit-code`` ("01", "012"): gdb prints it in OCTAL, so "012" is exit code 10.

    Used for both ``*stopped,reason="exited"`` and ``=thread-group-exited``; anything that is
    not an octal digit string gives None.
    """
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not text.strip().isdigit():
        return None
    try:
        return int(text.strip(), 8)
    except ValueError:
        return None
