"""A shared array as the Shared pane shows it, and how one of its values is shown.

The array's shape and element type come from a local's type (``@shared float [18][18]``), a
``__shared__`` declaration of the source (an ``extern`` array sized at launch gets blockDim.x
elements, noted) or what the user typed (``sdata[256]``). A printed value is shown as gdb prints
it, as a 32-bit integer or as hex bits (IEEE single for a float); the bank of element i is
``(address / 4) mod 32`` from the address of the first element plus i times the element size.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from functools import cached_property

from cudatui.gdbbridge import SharedDecl

SIZES = {"char": 1, "short": 2, "half": 2, "__half": 2, "double": 8, "long": 8, "size_t": 8}
"""Element sizes in bytes by type word (everything else: 4)."""

EXTERN_DEFAULT = 256
"""Elements shown of an ``extern __shared__`` array when the kernel's blockDim is unknown."""

MODES = ("value", "int", "hex", "bank")
"""How the value column is shown: as gdb prints it, as a 32-bit integer, as hex bits, as the
element's shared-memory bank."""

_ARRAY = re.compile(r"^\s*([A-Za-z_]\w*)\s*((?:\[\s*\d+\s*\])+)\s*$")


@dataclass(frozen=True)
class SharedArray:
    """One shared array: ``dims`` is (n,) or (rows, cols); ``element`` the C type of one element."""

    name: str
    element: str
    dims: tuple[int, ...]
    note: str = ""
    """Where a guessed size comes from (an ``extern`` array sized at launch), for the title."""

    @cached_property
    def element_size(self) -> int:
        """Bytes per element (read per cell: computed once)."""
        return next((size for word, size in SIZES.items() if word in self.element.split()), 4)

    @property
    def grid(self) -> bool:
        return len(self.dims) == 2

    @property
    def units(self) -> int:
        """What paging counts: elements of a 1-D array, rows of a 2-D one."""
        return self.dims[0]

    @property
    def per_unit(self) -> int:
        return self.dims[1] if self.grid else 1


def from_variable_type(name: str, type_text: str) -> SharedArray | None:
    """``@shared float [18][18]`` -> SharedArray(name, "float", (18, 18)); non-arrays give None."""
    if "@shared" not in type_text:
        return None
    dims = tuple(int(d) for d in re.findall(r"\[(\d+)\]", type_text))
    if not dims or len(dims) > 2:
        return None
    element = re.sub(r"\[.*$|@\w+|\bconst\b|\bvolatile\b", " ", type_text).strip()
    return SharedArray(name, " ".join(element.split()) or "?", dims)


def from_declaration(decl: SharedDecl, block_x: int | None) -> SharedArray | None:
    """A declared array to show; an unknown first size (``extern T a[]``) becomes ``block_x``
    elements (the kernel's blockDim.x) or EXTERN_DEFAULT, noted. None if it cannot be paged."""
    if not decl.dims or len(decl.dims) > 2 or any(d is None for d in decl.dims[1:]):
        return None
    first = decl.dims[0]
    note = ""
    if first is None:
        first = block_x or EXTERN_DEFAULT
        kind = "extern" if decl.extern else "size unknown"
        note = f"{kind}: {first} shown (blockDim.x)" if block_x else f"{kind}: {first} shown (a guess; a to set)"
    return SharedArray(decl.name, decl.element, (first, *(d for d in decl.dims[1:] if d is not None)), note)


def parse_added(text: str) -> SharedArray:
    """``sdata[256]`` or ``tile[18][18]`` typed by the user; ValueError with a one-line message."""
    m = _ARRAY.match(text)
    if not m:
        raise ValueError(f"cannot read {text.strip()!r}: type a shared array as NAME[N] or NAME[ROWS][COLS]")
    dims = tuple(int(d) for d in re.findall(r"\d+", m.group(2)))
    if len(dims) > 2 or 0 in dims:
        raise ValueError(f"cannot show {text.strip()!r}: one or two non-zero dimensions only")
    return SharedArray(m.group(1), "?", dims)


def bits(value: str, element: str = "?") -> int | None:
    """The bit pattern of a printed element: IEEE single for ``float`` (and for unknown
    types printed with a point or exponent), two's complement 32-bit otherwise; None if unreadable."""
    words = element.split()
    floating = "float" in words or (element == "?" and re.search(r"[.eE]|inf|nan", value) is not None)
    try:
        if floating:
            return struct.unpack("<I", struct.pack("<f", float(value)))[0]
        return int(value, 0) & 0xFFFFFFFF
    except (ValueError, OverflowError, struct.error):
        return None


def shown(value: str, mode: str, element: str = "?") -> str:
    """``value`` in the display ``mode`` (see MODES)."""
    if mode == "value":
        return value
    pattern = bits(value, element)
    if pattern is None:
        return value
    if mode == "hex":
        return f"{pattern:#010x}"
    return str(pattern - (1 << 32) if pattern >= 1 << 31 else pattern)


def bank(address: int | None, index: int, element_size: int) -> str:
    """The shared-memory bank of element ``index``: (byte address / 4) mod 32."""
    return "?" if address is None else str(((address + index * element_size) // 4) % 32)
