"""The tree of the Locals pane: one line per local, watch, member, element or pointee.

Each line shows the name, the value (elided past :data:`VALUE_WIDTH`; ``v`` shows it whole),
the type and the address space. What gdb cannot show is said in words: ``optimized out``,
``out of scope``, ``not in this recording``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from cudatui.tui.textual_compat import InPlaceTree

CHANGED = "bold #ff8700"
"""Style of a value that changed since the last stop (readable on dark and light themes)."""

VALUE_WIDTH = 48
"""Characters of a value shown on its line; the rest is elided (``v`` shows the whole)."""

NAME_WIDTH = 24
"""The widest name column of the top lines."""


@dataclass(frozen=True)
class Row:
    """What one line of the tree shows.

    ``kind``: ``local``, ``watch``, ``member`` (under an opened variable), ``note`` (a line
    saying why nothing is shown) or ``section`` (the watch expressions' heading). ``root`` is
    ``local`` or ``watch`` for every line under one of those; ``path`` the varobj path."""

    kind: str
    root: str
    path: tuple[str, ...]
    value: str = ""
    type: str = ""
    expandable: bool = False
    is_arg: bool = False
    in_scope: bool = True
    changed: bool = False

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """The line's identity across stops."""
        return (self.root, self.path)

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else ""


def storage_space(type_text: str) -> str | None:
    """Where the variable itself lives: the last ``@space`` of its type (for
    ``const @generic float * @parameter`` the pointer is a parameter pointing to generic memory)."""
    spaces = [w[1:] for w in type_text.replace("*", " ").replace("(", " ").replace(")", " ").split() if w.startswith("@")]
    return spaces[-1] if spaces else None


def value_words(row: Row) -> tuple[str, str]:
    """The value as the tree says it, and its style: what gdb cannot show, in words."""
    value = " ".join(row.value.split())
    if not row.in_scope:
        return "out of scope", "dim italic"
    if row.kind == "note":
        return value, "dim italic"
    if value == "<optimized out>":
        return "optimized out", "dim italic"
    if value.startswith(("<No symbol", "<no symbol")):
        return f"not in scope here: {value[1:-1]}", "dim italic"
    if value.startswith("<") and value.endswith(">"):
        return value[1:-1], "italic"
    if not value:
        return "{…}", "dim"
    return value, CHANGED if row.changed else ""


def elided(text: str, width: int = VALUE_WIDTH) -> str:
    """``text`` cut to ``width`` characters, ending in ``…`` when cut."""
    return text if len(text) <= width else text[:width - 1] + "…"


def name_text(row: Row) -> Text:
    """The name, bold when its value changed, ``(arg)`` after an argument."""
    label = Text(row.name, style="bold" if row.changed else "")
    if row.is_arg:
        label.append(" (arg)", style="dim")
    return label


def type_text(type_: str) -> Text:
    """The type, dim, with the variable's own address space (its last ``@space``) in colour."""
    text = Text(elided(type_, 40), style="dim")
    space = storage_space(type_)
    if space:
        at = text.plain.rfind(f"@{space}")
        if at >= 0:
            text.stylize("bold cyan" if space == "shared" else "cyan", at, at + len(space) + 1)
    return text


def label(row: Row, name_width: int) -> Text:
    """The whole line of ``row``: name (padded to ``name_width``), value, type with its address
    space; a line that does not open starts with two spaces, under the others' arrow."""
    if row.kind == "section":
        return Text(row.name, style="bold")
    lead = "" if row.expandable else "  "
    if row.kind == "note":
        words, style = value_words(row)
        return Text(lead + words, style=style)
    name = Text(lead) + name_text(row)
    name.pad_right(max(0, name_width + len(lead) - name.cell_len))
    words, style = value_words(row)
    line = Text.assemble(name, " ", (elided(words), style))
    if row.type:
        line.append("  ")
        line.append_text(type_text(row.type))
    return line


class VariablesTree(InPlaceTree, Tree[Row]):
    """The tree of variables; right opens a line (or goes to its first member), left closes it
    (or goes to its parent); enter, space and a click open and close it too. Lines added or gone
    lay nothing out (its size does not follow them)."""

    BINDINGS = [  # no description: the Locals pane's help rows (right, left) say what they do
        Binding("right", "open", "", show=False),
        Binding("left", "close", "", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("variables", id=id)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = True

    def action_open(self) -> None:
        node = self.cursor_node
        if node is None or not node.allow_expand:
            return
        if node.is_expanded and node.children:
            self.move_cursor(node.children[0])
        else:
            node.expand()

    def action_close(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded and node.allow_expand:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    def lines(self) -> list[TreeNode[Row]]:
        """The nodes shown, top to bottom."""
        return [node for line in range(self.last_line + 1) if (node := self.get_node_at_line(line)) is not None]
