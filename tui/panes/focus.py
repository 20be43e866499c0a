"""CUDA focus navigator: devices -> kernels -> block ranges -> thread ranges, and "go to".

Block and thread ranges come from cuda-gdb's coalesced tables, read by the Debugger with the stop
only while a kernel or block range is open here (a grid of a million threads stays a handful of
rows): the pane says what it has open (:class:`~cudatui.tui.messages.RangesOpened`), the app
tells the Debugger while the pane is on the screen, and the stop's ``blocks`` and ``threads``
come in its snapshot (the stop shown again with them when a node is first opened). Selecting a
node asks for a focus switch; a stop that moves the focus by itself (a step that ends the warp,
a breakpoint hit by another thread) is announced on the title line until the next stop or focus
change.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Tree
from textual.widgets.tree import TreeNode

from cudatui.gdbbridge import (
    BlockRange, Device, FocusSyntaxError, Kernel, StopState, ThreadRange, fmt_dim3, normalize_focus, short_name,
)
from cudatui.tui.textual_compat import InPlaceTree
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import FocusRequested, RangesOpened

from .base import InfoLine, StatePane
from .bp_threads import BreakpointThreads

MAX_CHILDREN = 500
"""Ranges listed under one node; the rest is summarised in one line."""


@dataclass(frozen=True)
class FocusTarget:
    """What a tree node stands for: ``request`` is the focus switch it asks for."""

    kind: str
    request: str
    kernel: int | None = None
    blocks: BlockRange | None = None


def kernel_label(kernel: Kernel) -> Text:
    return Text.assemble(
        ("* " if kernel.current else "  "), (f"kernel {kernel.number} ", "bold"), (short_name(kernel.name), "cyan"),
        f"  grid {fmt_dim3(kernel.grid_dim)} block {fmt_dim3(kernel.block_dim)} · {kernel.total_threads:,} thr",
    )


def block_label(blocks: BlockRange) -> Text:
    span = fmt_dim3(blocks.first) if blocks.first == blocks.last else f"{fmt_dim3(blocks.first)}-{fmt_dim3(blocks.last)}"
    return Text.assemble(("* " if blocks.current else "  "), f"blocks {span} ×{blocks.count} ", (blocks.state, "green"))


def thread_label(threads: ThreadRange) -> Text:
    first = f"{fmt_dim3(threads.first_block)}{fmt_dim3(threads.first_thread)}"
    last = f"{fmt_dim3(threads.last_block)}{fmt_dim3(threads.last_thread)}"
    where = f"{(threads.file or '?').rsplit('/', 1)[-1]}:{threads.line}" if threads.line else (
        f"{threads.pc:#x}" if threads.pc is not None else "?")
    return Text.assemble(("* " if threads.current else "  "), f"{first}-{last} ×{threads.count} ", (where, "yellow"))


def device_label(device: Device) -> Text:
    return Text.assemble(("* " if device.current else "  "), (f"device {device.number} ", "bold"),
                         f"{device.name} {device.sm_type} · {device.num_sms} SMs")


@dataclass(frozen=True)
class Child:
    """A tree node to show: its label, what it stands for (None: a message line), whether it expands."""

    label: Text
    data: FocusTarget | None
    expands: bool = False


def kernel_child(kernel: Kernel) -> Child:
    return Child(kernel_label(kernel), FocusTarget("kernel", f"kernel {kernel.number}", kernel.number), True)


def range_child(row: BlockRange | ThreadRange, kernel: int | None) -> Child:
    """A block range (expandable to its thread ranges) or a thread range under ``kernel``."""
    if isinstance(row, BlockRange):
        return Child(block_label(row), FocusTarget("blocks", f"block {fmt_dim3(row.first)}", kernel, row), True)
    request = f"block {fmt_dim3(row.first_block)} thread {fmt_dim3(row.first_thread)}"
    return Child(thread_label(row), FocusTarget("threads", request, kernel))


def sync_children(node: TreeNode[FocusTarget], children: list[Child]) -> bool:
    """Give ``node`` these children: when they stand for the same targets as the ones shown, only
    changed labels are repainted (a rebuild makes the tree lay out the screen again). True when
    the children were rebuilt."""
    shown = [(c.data.request if c.data else None, c.allow_expand) for c in node.children]
    if shown == [(c.data.request if c.data else None, c.expands) for c in children]:
        for child, new in zip(node.children, children):
            child.data = new.data
            if child.label != new.label:
                child.set_label(new.label)
        return False
    node.remove_children()
    for new in children:
        if new.expands:
            node.add(new.label, new.data)
        else:
            node.add_leaf(new.label, new.data)
    return True


def in_range(block: tuple[int, int, int] | None, blocks: BlockRange) -> bool:
    """Whether ``block`` lies in the coalesced range (row-major order: x fastest)."""
    if block is None or blocks.first is None or blocks.last is None:
        return False
    key = (block[2], block[1], block[0])
    return (blocks.first[2], blocks.first[1], blocks.first[0]) <= key <= (blocks.last[2], blocks.last[1], blocks.last[0])


def focus_matches(state: StopState, previous: StopState | None) -> bool:
    """False when a new stop moved the software focus away from the one shown before."""
    if previous is None or previous.focus is None or state.focus is None or state.stop == previous.stop:
        return True
    return (state.focus.block, state.focus.thread) == (previous.focus.block, previous.focus.thread)


class FocusTree(InPlaceTree, Tree[FocusTarget]):
    """The kernels, blocks and threads to move the focus to; a line opened or closed lays nothing
    out (the tree's size does not follow its lines, and its scrollbar is always shown)."""


class FocusNavigator(StatePane):
    """Where the CUDA focus is, and every place it can go.

    | Key | Action |
    | :- | :- |
    | enter | Switch the focus to the selected device, kernel, block range or thread range. |
    | space | Expand or collapse (block and thread ranges are read once a kernel or block range is open). |
    | g | Go to: ``block (x,y,z) thread (x,y,z)``, ``warp W lane L`` or ``sm N``. |
    | T (app) | At a breakpoint: the focus to the next block sitting at it (the line under the title) |
    """

    BINDINGS = [Binding("g", "goto", "Go to")]

    DEFAULT_CSS = """
    FocusNavigator {
        height: 1fr;
    }
    FocusNavigator > #focus-title {
        height: 2;
        padding: 0 1;
        background: $panel;
    }
    FocusNavigator > Tree {
        height: 1fr;
        overflow-y: scroll;
    }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.notice = ""
        """The last announcement (focus moved by cuda-gdb, bad go-to input), shown on the title line
        in place of the focus (one line for both: the pane keeps its layout from stop to stop)."""
        self._notice_style = ""
        self._title = Text("CUDA focus")
        self._opened = (False, False)
        """What the pane said it has open last (a kernel, a block range)."""

    def compose(self) -> ComposeResult:
        yield InfoLine("CUDA focus", id="focus-title")
        yield BreakpointThreads(id="bp-threads")
        tree = FocusTree("CUDA", id="focus-tree")
        tree.show_root = False
        tree.auto_expand = False
        yield tree
        yield InlineInput(placeholder="block (x,y,z) thread (x,y,z) · warp W lane L · sm N", transient=True,
                          id="focus-goto")

    def action_goto(self) -> None:
        self.query_one("#focus-goto", InlineInput).open()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            request = normalize_focus(event.value)
        except FocusSyntaxError as exc:
            self._announce(str(exc), "red")
            return
        self._announce("")
        self.post_message(FocusRequested(request))

    def on_tree_node_selected(self, event: Tree.NodeSelected[FocusTarget]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(FocusRequested(event.node.data.request))

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[FocusTarget]) -> None:
        event.stop()
        target = event.node.data
        if target is not None and target.kind in ("kernel", "blocks") and self.state is not None:
            self._fill(event.node, self.state)
        self._say_opened()

    def on_tree_node_collapsed(self, event: Tree.NodeCollapsed[FocusTarget]) -> None:
        event.stop()
        self._say_opened()

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        focus = state.focus
        self._title = Text(f"focus {focus.software} · {focus.hardware}" if focus else "no CUDA focus (host code)")
        if not focus_matches(state, previous):
            assert previous is not None and previous.focus is not None and state.focus is not None
            self._announce(f"focus moved to {state.focus.software} by cuda-gdb ({state.stop.reason}), from "
                           f"{previous.focus.software}", "bold yellow")
        elif previous is None or (state.stop, state.focus) != (previous.stop, previous.focus):
            self._announce("")
        else:
            self._announce(self.notice, self._notice_style)
        self._rebuild(state)

    def _announce(self, text: str, style: str = "") -> None:
        """Show ``text`` on the title line in place of the focus until the next stop ("" clears it)."""
        self.notice, self._notice_style = text, style
        title = self.query_one("#focus-title", InfoLine)
        title.show(Text(text, style=style) if text else self._title)
        title.tooltip = f"{self._title.plain}\n{text}" if text else None

    def _rebuild(self, state: StopState) -> None:
        """Show the state's devices and kernels, updating the labels of the nodes shown in place
        when they are the same; expanded nodes stay open and show this stop's ranges."""
        tree: Tree[FocusTarget] = self.query_one(Tree)
        expanded = {n.data.request for n in self._walk(tree.root) if n.is_expanded and n.data is not None}
        devices = state.devices or ()
        if not devices and not state.kernels:
            sync_children(tree.root, [Child(Text("no device/kernel tables at this stop", style="dim"), None)])
            self._say_opened()
            return
        kernels = {d.number: [kernel_child(k) for k in state.kernels if k.device == d.number] for d in devices}
        if devices:
            added = sync_children(tree.root, [Child(device_label(d), FocusTarget("device", f"device {d.number}"), True)
                                              for d in devices])
            for node, device in zip(tree.root.children, devices):
                sync_children(node, kernels[device.number])
                if added:
                    node.expand()
        else:
            sync_children(tree.root, [kernel_child(k) for k in state.kernels])
        self._reopen(tree.root, expanded, state)
        self._say_opened()
        current = next((n for n in self._walk(tree.root) if n.data and n.data.kind == "kernel"
                        and any(k.current and k.number == n.data.kernel for k in state.kernels)), None)
        if current is not None:
            self.call_after_refresh(self._cursor_to, current)

    def _cursor_to(self, node: TreeNode[FocusTarget]) -> None:
        """Put the cursor on ``node`` and scroll it into view without animation (the same stop
        always shows the same rows)."""
        tree: Tree[FocusTarget] = self.query_one(Tree)
        if tree.last_line < 0 or not self._attached(node):  # last_line lays the tree lines out first
            return
        if tree.cursor_node is not node:
            tree.move_cursor(node)
        tree.scroll_to_node(node, animate=False)

    def _walk(self, node: TreeNode[FocusTarget]) -> list[TreeNode[FocusTarget]]:
        out = [node]
        for child in node.children:
            out.extend(self._walk(child))
        return out

    def _reopen(self, node: TreeNode[FocusTarget], expanded: set[str], state: StopState) -> None:
        """Open again, with ``state``'s ranges, the kernels and block ranges under ``node`` that
        were open (by the focus switch each asks for)."""
        for child in node.children:
            target = child.data
            if target is not None and target.kind in ("kernel", "blocks") and target.request in expanded:
                self._fill(child, state)
                if not child.is_expanded:
                    child.expand()
            self._reopen(child, expanded, state)

    def _fill(self, node: TreeNode[FocusTarget], state: StopState) -> None:
        """The ranges under ``node`` at ``state``; until the Debugger shows the stop again with
        them (this pane says it has the node open), "loading…", or the ranges shown before (a node
        open while the pane was hidden stays open, and its children with it)."""
        target = node.data
        assert target is not None
        rows: list[BlockRange] | list[ThreadRange]
        if target.kind == "kernel":
            blocks = state.blocks
            error = blocks.error if blocks is not None else ""
            rows = [b for b in blocks.value if b.kernel == target.kernel] if blocks is not None else []
            loading = blocks is None
        else:
            error, loading = state.threads_error, "threads" in state.unasked
            rows = [t for t in state.threads
                    if t.kernel == target.kernel and target.blocks and in_range(t.first_block, target.blocks)]
        if loading:
            if not any(child.data is not None for child in node.children):
                sync_children(node, [Child(Text("loading…", style="dim"), None)])
            return
        if error:
            sync_children(node, [Child(Text(f"cannot list ranges: {error}", style="red"), None)])
            return
        children = [range_child(row, target.kernel) for row in rows[:MAX_CHILDREN]]
        if len(rows) > MAX_CHILDREN:
            children.append(Child(Text(f"… {len(rows) - MAX_CHILDREN} more ranges (use g to go to one)", style="dim"), None))
        sync_children(node, children or [Child(Text("no ranges", style="dim"), None)])

    def _say_opened(self) -> None:
        """Tell the app whether a kernel and a block range are open (shown: their parents open
        too), when that changed."""
        tree: Tree[FocusTarget] = self.query_one(Tree)
        shown = [n for n in self._walk(tree.root) if n.is_expanded and n.data is not None
                 and all(p.is_expanded for p in self._ancestors(n))]
        kinds = {n.data.kind for n in shown if n.data is not None}
        opened = ("kernel" in kinds, "blocks" in kinds)
        if opened != self._opened:
            self._opened = opened
            self.post_message(RangesOpened(*opened))

    @staticmethod
    def _ancestors(node: TreeNode[FocusTarget]) -> list[TreeNode[FocusTarget]]:
        out = []
        parent = node.parent
        while parent is not None and not parent.is_root:
            out.append(parent)
            parent = parent.parent
        return out

    def _attached(self, node: TreeNode[FocusTarget]) -> bool:
        """Whether ``node`` is still in the tree (a rebuild may have dropped it while loading)."""
        return any(n is node for n in self._walk(self.query_one(Tree).root))
