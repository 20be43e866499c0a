"""What every debugger pane shares: it renders one immutable StopState and drops stale ones.

Panes never talk to gdb themselves. They post intent messages (declared below) that the app's
controller routes to gdbbridge, and panes that need data on demand (shared memory, SASS, warp
watch) call the async :class:`DebuggerPort` the app gives them, from a worker.
"""

from __future__ import annotations

from typing import Protocol

from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from gdbbridge.models import Instruction, StopState


class DebuggerPort(Protocol):
    """The on-demand queries a pane may make (implemented by the app's controller)."""

    async def evaluate(self, expression: str) -> str: ...

    async def read_shared(self, name: str, start: int, count: int) -> tuple[str, ...]: ...

    async def disassemble(self, start: str, end: str) -> tuple[Instruction, ...]: ...

    async def evaluate_in_lanes(self, expression: str) -> tuple[tuple[int, str], ...]: ...


class FocusRequested(Message):
    """Switch the CUDA focus: ``request`` like "block (3,0,0) thread (200,0,0)" or "warp 2 lane 3"."""

    def __init__(self, request: str) -> None:
        super().__init__()
        self.request = request


class BreakpointToggled(Message):
    """Toggle a breakpoint at ``path:line``."""

    def __init__(self, path: str, line: int) -> None:
        super().__init__()
        self.path = path
        self.line = line


class FrameSelected(Message):
    """Select stack frame ``level`` (locals and source follow)."""

    def __init__(self, level: int) -> None:
        super().__init__()
        self.level = level


class OpenSource(Message):
    """Show ``path`` at ``line`` in the source pane."""

    def __init__(self, path: str, line: int | None) -> None:
        super().__init__()
        self.path = path
        self.line = line


class StatePane(Widget):
    """A pane showing one StopState. Subclasses implement :meth:`render_state`."""

    state: reactive[StopState | None] = reactive(None, always_update=True)
    """The state shown; set through :meth:`show_state`."""

    def show_state(self, state: StopState) -> None:
        """Show ``state`` unless an equal or newer generation is already shown."""
        if self.state is not None and state.generation <= self.state.generation:
            return
        self.state = state

    def watch_state(self, old: StopState | None, new: StopState | None) -> None:
        if new is not None:
            self.render_state(new, old)

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        raise NotImplementedError
