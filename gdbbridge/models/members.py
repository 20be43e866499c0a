"""The members, elements and pointees of a variable opened in the Locals tree, as gdb's variable
objects show them (:mod:`cudatui.gdbbridge.debugger.varobj` reads them; a stop carries those of
the lines opened: ``StopState.members``)."""

from __future__ import annotations

from dataclasses import dataclass

from cudatui.gdbbridge.models.answers import Answer

Path = tuple[str, ...]
"""A node: the root expression (a local's name or a watch expression), then the ``exp`` of each
child on the way down (a member ``x``, an index ``3``, a pointee ``*p``)."""


@dataclass(frozen=True)
class VarNode:
    """One member, element or pointee of an opened variable, as gdb's varobj shows it.

    ``value`` is empty for an aggregate (open it); ``children`` is how many it has (0: a leaf);
    ``in_scope`` is False once gdb says the variable is out of scope at the stop shown."""

    path: Path
    value: str
    type: str = ""
    children: int = 0
    in_scope: bool = True

    @property
    def name(self) -> str:
        """What the tree shows: the member name, the index, ``*p``."""
        return self.path[-1]


def expandable(value: str, type_text: str) -> bool:
    """Whether a local or watch has members, elements or a pointee to open: an aggregate (gdb
    gives no simple value), an array or a pointer (not a function pointer, not null)."""
    if value.startswith("<") and value.endswith(">"):
        return False
    words = type_text.replace("@", " @").split()
    if not value or type_text.rstrip().endswith("]") or value.startswith("{"):
        return True
    return "*" in type_text and "(*)(" not in type_text.replace(" ", "") and not value.startswith("0x0 ") \
        and value != "0x0" and "void" not in words[:2]


Members = tuple[tuple[Path, Answer[tuple[VarNode, ...]]], ...]
"""The children of each opened path read at a stop, in tree order (``StopState.members``)."""
