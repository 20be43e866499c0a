"""The ``E`` dialog: a CUDA error explained (:class:`~cudatui.tui.widgets.explain_view.ExplainPanel`) until an action is chosen."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import ModalScreen

from cudatui.gdbbridge import ActionSuggestion, Diagnosis
from cudatui.tui.widgets.explain_view import ExplainPanel
from cudatui.tui.messages import ActionChosen, Closed


class ExplainScreen(ModalScreen[ActionSuggestion | None]):
    """A modal showing an :class:`ExplainPanel` (with the stop's whole exception text, when given); dismissed with the chosen action or None."""

    DEFAULT_CSS = """
    ExplainScreen { align: center middle; }
    ExplainScreen ExplainPanel { width: 90%; height: 90%; max-width: 120; }
    """

    def __init__(self, diagnosis: Diagnosis, stop: Text | None = None) -> None:
        super().__init__()
        self._diagnosis = diagnosis
        self._stop = stop

    def compose(self) -> ComposeResult:
        yield ExplainPanel(self._diagnosis, stop=self._stop)

    def on_mount(self) -> None:
        self.query_one(ExplainPanel).focus()

    def on_explain_panel_action_chosen(self, message: ActionChosen) -> None:
        self.dismiss(message.action)

    def on_explain_panel_closed(self, message: Closed) -> None:
        self.dismiss(None)
