"""Locals and watch expressions as one tree: values, types, address spaces, what changed since
the last stop; structs, arrays, pointers and C++ objects opened lazily (gdb variable objects,
read by the Debugger with the stop: the pane says which lines are open, and shows the snapshot)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Tree
from textual.widgets.tree import TreeNode

from cudatui.gdbbridge import Answer, StopState, VarNode, expandable, short_name
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import ValueWanted, VariablesOpened, WatchAdded, WatchRemoved
from cudatui.tui.widgets.value_screen import ValueScreen

from .base import StatePane, same_stop
from .variables_tree import NAME_WIDTH, Row, VariablesTree, label, value_words

WATCHES = "Watch expressions (w adds one, delete removes it)"


def no_locals(state: StopState | None) -> str | None:
    """Why a stop in a frame shows no locals (None where no frame is shown: running, exited)."""
    if state is None or state.frame is None or state.stop.exited:
        return None
    if not state.frame.file:
        return f"no locals: {short_name(state.frame.func) or 'this frame'} has no debug information"
    return "no locals or arguments in this frame"


STALE_REGISTERS = "outer frame: @register values may be stale here; trust memory, parameters and built-ins"
"""The note under an outer kernel frame's register locals. Measured on the H200 (cuda-gdb 13.0,
the assert lesson, batch 17): at the Warp Assert of thread (67,0,0), frame 1 (one_hot_buggy,
above __assert_fail) listed ``i = 0`` and ``column = 0``, where i is 67 and column 10."""


def stale_registers(state: StopState | None) -> bool:
    """Whether the frame shown is an outer frame of a kernel with locals held in registers."""
    return (state is not None and state.in_kernel and state.selected_frame > 0
            and any("@register" in v.type for v in state.variables))


class LocalsPane(StatePane):
    """The selected frame's locals and arguments, then the watch expressions, as a tree.

    The tree shows the stop's snapshot only: its locals, its watches and the members of the lines
    opened (``StopState.members``). Opening or closing a line says which lines are open in this
    frame (:class:`VariablesOpened`); the Debugger reads their members and shows the stop again.

    | Key | Action |
    | :- | :- |
    | right / enter / space | Open a struct, array or pointer (right again: its first member) |
    | left | Close it (left again: to its parent) |
    | v | The whole value of the line (long values are elided) |
    | w | Add a watch expression (escape leaves the watch line) |
    | delete | Remove the watch under the cursor |
    """

    BINDINGS = [
        Binding("w", "add_watch", "Watch"),
        Binding("right,enter,space", "open_line", "Open a struct, array or pointer", show=False),
        Binding("left", "close_line", "Close it (again: to its parent)", show=False),
        Binding("v", "show_value", "The whole value", show=False),
        Binding("delete", "remove_watch", "Unwatch", show=False),
    ]
    """The tree's own keys (right, left) act first; they are here for the help screen too."""

    DEFAULT_CSS = """
    LocalsPane { height: 1fr; layout: vertical; }
    LocalsPane > VariablesTree { height: 1fr; min-height: 3; }
    LocalsPane > Input { height: 1; border: none; padding: 0 1; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._lines: dict[tuple[str, tuple[str, ...]], TreeNode[Row]] = {}
        self._opened: dict[object, set[tuple[str, ...]]] = {}
        """Per frame (function, level, depth): the paths the user opened (what the pane says in
        :class:`VariablesOpened`; the stop carries the members of those it shows)."""
        self._last: dict[tuple[str, tuple[str, ...]], tuple[int, str, str]] = {}
        """Per line: the place it was last shown at, its value then, its value before that."""
        self._frame: object = None
        self._quiet: set[int] = set()
        """The nodes the pane opened or closed itself (their NodeExpanded or NodeCollapsed is not
        the user's)."""

    def compose(self) -> ComposeResult:
        yield VariablesTree(id="locals-tree")
        yield InlineInput(placeholder="w: add a watch expression", id="watch-input", compact=True)

    @property
    def tree(self) -> VariablesTree:
        return self.query_one(VariablesTree)

    # -- what is shown -------------------------------------------------------------------------

    def rows(self, root: str = "local") -> dict[tuple[str, ...], Row]:
        """The lines shown under ``root`` (``local`` or ``watch``), by path, in tree order (the
        members of a closed line are not shown)."""
        return {node.data.path: node.data for node in self._walk() if node.data is not None and node.data.root == root
                and node.data.kind != "section"}

    def _walk(self) -> list[TreeNode[Row]]:
        out, todo = [], list(reversed(self.tree.root.children))
        while todo:
            node = todo.pop()
            out.append(node)
            if node.is_expanded:
                todo.extend(reversed(node.children))
        return out

    def _changed(self, key: tuple[str, tuple[str, ...]], value: str) -> bool:
        """Whether ``value`` differs from the line's value at an earlier place in this frame (the
        same stop shown again keeps what changed at it)."""
        place = self.place
        seen = self._last.get(key)
        before = value if seen is None else seen[2] if seen[0] == place else seen[1]
        self._last[key] = (place, value, before)
        return before != value

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        if same_stop(state, previous) and previous is not None and state.watches == previous.watches \
                and state.members == previous.members:
            return  # a bump that changes nothing here (breakpoints, notes)
        frame = (state.frame.func if state.frame else None, state.selected_frame, len(state.frames))
        if frame != self._frame:
            self._frame, self._last = frame, {}
        rows = [Row("local", "local", (v.name,), v.value, v.type, expandable(v.value, v.type), v.is_arg,
                    changed=self._changed(("local", (v.name,)), v.value)) for v in state.variables]
        watches = [Row("watch", "watch", (w.name,), w.value, w.type, expandable(w.value, w.type),
                       changed=self._changed(("watch", (w.name,)), w.value)) for w in state.watches]
        self._show(state, rows, watches)

    def _show(self, state: StopState, locals_: list[Row], watches: list[Row]) -> None:
        """The top lines: the locals (or why there are none), then the watch heading and its
        watches (diffed by key); under each line opened, its members at this stop."""
        tree = self.tree
        width = min(NAME_WIDTH, max([len(r.name) + 6 * r.is_arg for r in locals_ + watches] or [0]))
        none = no_locals(state) if not locals_ else None
        top = locals_ or ([Row("note", "frame", ("none",), none)] if none else [])
        if locals_ and stale_registers(state):
            top = [*top, Row("note", "frame", ("stale",), STALE_REGISTERS)]
        members = dict(state.members or ())
        with self.app.batch_update():
            self._sync(tree.root, top + ([Row("section", "watch", (WATCHES,))] if watches else []), width)
            self._show_members(tree.root, members)
            if watches:
                section = self._lines[("watch", (WATCHES,))]
                self._sync(section, watches, width)
                self._expand(section)
                self._show_members(section, members)

    def _show_members(self, parent: TreeNode[Row], members: dict[tuple[str, ...], Answer[tuple[VarNode, ...]]]) -> None:
        """Open each line under ``parent`` whose members the stop holds, with them; close the others."""
        for node in parent.children:
            row = node.data
            if row is None or row.kind in ("section", "note"):
                continue
            answer = members.get(row.path) if row.expandable else None
            if answer is None:
                if node.is_expanded:
                    self._quiet.add(id(node))
                    node.collapse()
                if node.children:
                    self._sync(node, [], 0)
                continue
            rows = [Row("member", row.root, c.path, c.value, c.type, c.children > 0, in_scope=c.in_scope,
                        changed=c.in_scope and self._changed((row.root, c.path), c.value)) for c in answer.value]
            if not rows:
                why = ("not in this recording (a replay answers only what was asked when it was recorded)"
                       if answer.not_recorded else f"cannot open: {answer.error}" if answer.error else "no members")
                rows = [Row("note", row.root, (*row.path, "·"), why)]
            self._sync(node, rows, min(NAME_WIDTH, max(len(r.name) for r in rows)))
            self._expand(node)
            self._show_members(node, members)

    def _expand(self, node: TreeNode[Row]) -> None:
        """Open ``node`` for the user (not as the user: nothing is said)."""
        if not node.is_expanded:
            self._quiet.add(id(node))
            node.expand()

    def _sync(self, parent: TreeNode[Row], rows: list[Row], width: int) -> None:
        """Make ``parent``'s children show ``rows``: relabel in place when the keys are the same."""
        have = [n.data.key for n in parent.children if n.data is not None]
        if have == [r.key for r in rows]:
            for node, row in zip(parent.children, rows):
                if node.data != row:
                    node.data = row
                    node.allow_expand = row.expandable
                    node.set_label(label(row, width))
            return
        for node in list(parent.children):
            self._forget(node)
            node.remove()
        for row in rows:
            node = parent.add(label(row, width), data=row, allow_expand=row.expandable)
            self._lines[row.key] = node

    def _forget(self, node: TreeNode[Row]) -> None:
        for child in node.children:
            self._forget(child)
        if node.data is not None and self._lines.get(node.data.key) is node:
            del self._lines[node.data.key]

    # -- opening and closing -------------------------------------------------------------------

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded[Row]) -> None:
        event.stop()
        if id(event.node) in self._quiet:
            self._quiet.discard(id(event.node))
            return
        row = event.node.data
        if row is not None and row.kind not in ("section", "note"):
            self._say_opened(row.path, True)

    @on(Tree.NodeCollapsed)
    def _collapsed(self, event: Tree.NodeCollapsed[Row]) -> None:
        event.stop()
        if id(event.node) in self._quiet:
            self._quiet.discard(id(event.node))
            return
        if event.node.data is not None:
            self._say_opened(event.node.data.path, False)

    def _say_opened(self, path: tuple[str, ...], opened: bool) -> None:
        """The user opened or closed the line at ``path``: say which lines are open in this frame."""
        paths = self._opened.setdefault(self._frame, set())
        (paths.add if opened else paths.discard)(path)
        self.post_message(VariablesOpened(frozenset(paths)))

    # -- keys ----------------------------------------------------------------------------------

    def action_show_value(self) -> None:
        node = self.tree.cursor_node
        row = node.data if node is not None else None
        if row is None or row.kind == "section":
            return
        words, _ = value_words(row)
        if row.kind in ("local", "watch") and not row.value:  # an aggregate: gdb prints it whole
            self.post_message(ValueWanted(row.path[0], row.type))
            return
        self.app.push_screen(ValueScreen(" › ".join(row.path), row.type, words))

    def action_open_line(self) -> None:
        self.tree.action_open()

    def action_close_line(self) -> None:
        self.tree.action_close()

    def action_add_watch(self) -> None:
        self.query_one("#watch-input", InlineInput).open()

    def action_remove_watch(self) -> None:
        node = self.tree.cursor_node
        if self.tree.has_focus and node is not None and node.data is not None and node.data.kind == "watch":
            self.post_message(WatchRemoved(node.data.path[0]))

    @on(Input.Submitted, "#watch-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        expression = event.value.strip()
        if expression:
            self.post_message(WatchAdded(expression))
