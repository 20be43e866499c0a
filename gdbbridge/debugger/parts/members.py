"""The Locals pane's part of a stop: the members of the variables opened in its tree.

The user opens a line of the Locals tree (a local, a watch, a member of one opened before); the
UI tells the Debugger (``open_variables``), which keeps the paths opened by frame (function,
selected level, depth: the tree a frame shows is opened again when a later stop shows that frame)
and, while the Locals pane is on the screen, reads their children with each stop through gdb's
variable objects (:class:`~cudatui.gdbbridge.debugger.varobj.VariableObjects`: ``-var-create``
once per root, ``-var-list-children`` once per node and frame, the same commands the tree sent
when it asked for them itself). A path is read when its line is shown: a root that is a local or
a watch expression of the stop with something to open, a member whose parent was read and has
children; the others wait (a member under a closed line is opened again with its parent).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable

from cudatui.gdbbridge.debugger.varobj import VariableObjects
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.answers import Answer
from cudatui.gdbbridge.models.members import Members, Path, VarNode, expandable
from cudatui.gdbbridge.session.errors import MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.text import clean

def tree_frame(state: StopState) -> Hashable:
    """The frame whose opened lines ``state`` shows (the function, the level, the depth; a focus
    switch to another thread in it keeps them)."""
    return (state.frame.func if state.frame else None, state.selected_frame, len(state.frames))


class OpenedMembers:
    """The members part (see the module docstring)."""

    field = "members"

    def __init__(self, variables: Callable[[], VariableObjects | None]) -> None:
        self.variables = variables
        """The session's variable objects (a new session has new ones)."""
        self.shown = False
        """Whether the Locals pane is on the screen."""
        self._opened: dict[Hashable, frozenset[Path]] = {}
        """The paths opened in the tree, by :func:`tree_frame`."""

    def open(self, state: StopState, paths: Collection[Path]) -> None:
        """The tree shows ``paths`` opened at ``state``'s frame (and no other)."""
        self._opened[tree_frame(state)] = frozenset(paths)

    def _roots(self, state: StopState) -> list[Path]:
        opened = self._opened.get(tree_frame(state), frozenset())
        tops = [v for v in (*state.variables, *state.watches) if expandable(v.value, v.type)]
        return list(dict.fromkeys((v.name,) for v in tops if (v.name,) in opened))

    def _due(self, state: StopState, have: dict[Path, Answer[tuple[VarNode, ...]]]) -> list[Path]:
        """The opened paths whose lines ``state`` shows, as far as ``have`` (the children read)
        tells, in tree order."""
        opened = self._opened.get(tree_frame(state), frozenset())
        out: list[Path] = []

        def walk(path: Path) -> None:
            out.append(path)
            answer = have.get(path)
            for child in answer.value if answer is not None else ():
                if child.children > 0 and child.path in opened:
                    walk(child.path)

        for root in self._roots(state):
            walk(root)
        return out

    def wanted(self, state: StopState) -> bool:
        if not self.shown or state.stop.exited:
            return False
        have = dict(state.members or ())
        return self._due(state, have) != list(have)

    async def gather(self, session: GdbSession, state: StopState) -> Members:
        """The children of every opened path shown at ``state``; those ``state`` has (the same
        stop) are kept, the others read (the lock is held)."""
        variables = self.variables()
        have = dict(state.members or ())
        read: dict[Path, Answer[tuple[VarNode, ...]]] = {}
        todo = self._due(state, {})
        while todo:
            path = todo.pop(0)
            answer = have.get(path)
            if answer is None:
                answer = await self._children(variables, path)
            read[path] = answer
            done = self._due(state, read)
            todo = [p for p in done if p not in read]
        return tuple((path, read[path]) for path in self._due(state, read))

    @staticmethod
    async def _children(variables: VariableObjects | None, path: Path) -> Answer[tuple[VarNode, ...]]:
        asked = ".".join(path)
        if variables is None:
            return Answer(asked, (), "no debugger")
        try:
            return Answer(asked, clean(await variables.children(path)))
        except MIError as exc:
            return Answer(asked, (), exc.message, exc.not_recorded)
