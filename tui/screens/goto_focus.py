"""The dialog that asks where to move the CUDA focus (``g``)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label


class GotoFocusScreen(ModalScreen[str | None]):
    """Asks where to move the CUDA focus; dismissed with the request or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    GotoFocusScreen { align: center middle; }
    GotoFocusScreen > Vertical { width: 64; height: auto; border: round $accent; padding: 0 1; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Go to CUDA focus")
            yield Input(placeholder="block (1,0,0) thread (5,0,0) · warp 2 lane 3 · sm 4")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
