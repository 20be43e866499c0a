"""Structs, arrays, pointers and C++ objects opened lazily through gdb's variable objects.

A tree node is named by its *path*: the root expression (a local's name or a watch expression)
then the ``exp`` of each child gdb listed on the way down (a member ``x``, an index ``3``, a
pointee ``*p``). :class:`VariableObjects` creates a root varobj (``-var-create``) the first time a
node under it is opened and lists children (``-var-list-children``) only when asked, caching
both; the Locals pane's part of a stop (:mod:`~cudatui.gdbbridge.debugger.parts.members`) asks
for the lines opened in its tree. Nothing is sent until something is opened, so a stop costs no
varobj command unless the user opened a node.

Varobjs are bound to the frame they were made in. :meth:`VariableObjects.follow` is called with
each new state: in the same frame (function, depth, selected level, CUDA thread) the varobjs are
brought up to date with one ``-var-update`` (a value that left scope says so), elsewhere they
are deleted (``-var-delete``), so none outlive their frame. C++ access groups (``public``,
``private``) are opened in place: their members are listed as the object's children.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from collections.abc import Hashable

from cudatui.gdbbridge.convert import to_int
from cudatui.gdbbridge.models import StopState
from cudatui.gdbbridge.models.members import Path, VarNode
from cudatui.gdbbridge.session.errors import DebuggerGone, MIError
from cudatui.gdbbridge.session.gdb import GdbSession
from cudatui.gdbbridge.session.mi import Flag

_ACCESS = {"public", "private", "protected"}


def frame_key(state: StopState) -> Hashable:
    """Which frame a state shows: varobjs made in one are valid only in the same one."""
    frame = state.frame
    focus = state.focus
    return (state.stop.exited, frame.func if frame else None, len(state.frames), state.selected_frame,
            (focus.block, focus.thread) if focus else None)


class VariableObjects:
    """The varobjs of one session at the frame shown (see the module docstring)."""

    def __init__(self, session: GdbSession) -> None:
        self.session = session
        self._frame: Hashable = None
        self._names: dict[Path, str] = {}
        """Path -> gdb's varobj name (``var1.inner.x``) of every node made or listed."""
        self._roots: dict[str, str] = {}
        self._children: dict[Path, tuple[VarNode, ...]] = {}

    @property
    def roots(self) -> tuple[str, ...]:
        """gdb's names of the root varobjs alive now."""
        return tuple(self._roots.values())

    async def follow(self, state: StopState) -> None:
        """Keep the varobjs at ``state``'s stop: updated in the same frame, else deleted."""
        key = frame_key(state)
        if key != self._frame or state.stop.exited:
            await self.forget()
            self._frame = key
        elif self._roots:
            await self._update()

    async def forget(self) -> None:
        """Delete every varobj (gdb deletes a root's children with it)."""
        roots, self._roots, self._names, self._children = list(self._roots.values()), {}, {}, {}
        for name in roots:
            try:
                await self.session.command("-var-delete", name)
            except DebuggerGone:
                raise
            except MIError:
                pass

    async def children(self, path: Path) -> tuple[VarNode, ...]:
        """The children of the node at ``path`` (made and listed on first use); MIError when
        gdb refuses (a recording that never opened it: ``not in this recording``)."""
        if path in self._children:
            return self._children[path]
        name = await self._varobj(path)
        found = await self._list(name, path)
        self._children[path] = found
        return found

    async def _varobj(self, path: Path) -> str:
        if path in self._names:
            return self._names[path]
        if len(path) == 1:
            payload = await self.session.command("-var-create", Flag("-"), "*", path[0])
            name = str(payload.get("name", ""))
            self._roots[path[0]] = self._names[path] = name
            return name
        if path[-1] not in {child.name for child in await self.children(path[:-1])}:
            raise MIError(f"{'.'.join(path[:-1])} has no member {path[-1]} at this stop", "")
        return self._names[path]

    async def _list(self, name: str, path: Path) -> tuple[VarNode, ...]:
        payload = await self.session.command("-var-list-children", Flag("--simple-values"), name)
        found: list[VarNode] = []
        for child in _entries(payload.get("children")):
            exp, child_name = str(child.get("exp", "")), str(child.get("name", ""))
            if exp in _ACCESS and not child.get("type"):  # a C++ access group: its members in place
                found.extend(await self._list(child_name, path))
                continue
            node = VarNode((*path, exp), str(child.get("value", "")), str(child.get("type", "")),
                           to_int(child.get("numchild"), 0) or 0)
            self._names[node.path] = child_name
            found.append(node)
        return tuple(found)

    async def _update(self) -> None:
        """One ``-var-update`` for every varobj: new values, scope, changed types."""
        try:
            payload = await self.session.command("-var-update", Flag("--simple-values"), "*")
        except DebuggerGone:
            raise
        except MIError:
            await self.forget()
            return
        by_name = {name: path for path, name in self._names.items()}
        for change in _entries(payload.get("changelist")):
            path = by_name.get(str(change.get("name", "")))
            if path is None:
                continue
            scope = str(change.get("in_scope", "true"))
            if change.get("type_changed") == "true" or scope == "invalid":
                self._drop(path)
                continue
            self._set(path, lambda node, change=change, scope=scope: replace(
                node, value=str(change.get("value", node.value)), in_scope=scope == "true"))

    def _set(self, path: Path, change: Any) -> None:
        parent = path[:-1]
        if parent in self._children:
            self._children[parent] = tuple(change(n) if n.path == path else n for n in self._children[parent])

    def _drop(self, path: Path) -> None:
        """Forget what was listed under ``path`` (its type changed: list it again when asked)."""
        for known in [p for p in self._children if p[:len(path)] == path]:
            del self._children[known]
        for known in [p for p in self._names if p[:len(path)] == path and p != path]:
            del self._names[known]


def _entries(value: Any) -> list[dict[str, Any]]:
    """The tuples of an MI list (``[child={...},child={...}]`` or ``[{...},{...}]``)."""
    if isinstance(value, dict):
        value = value.get("child", [value]) if "child" in value else [value]
    out: list[dict[str, Any]] = []
    for item in value if isinstance(value, list) else []:
        if isinstance(item, dict) and isinstance(item.get("child"), dict):
            item = item["child"]
        if isinstance(item, dict):
            out.append(item)
    return out
