"""The ``E`` dialog: a CUDA error explained (:class:`~cudatui.tui.widgets.explain_view.ExplainPanel`) until an action is chosen."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import ModalScreen

from cudatui.gdbbridge import ActionSuggestion, Diagnosis
from cudatui.tui.widgets.explain_view import ExplainPanel
from cudatui.tui.messages import ActionChosen, Closed


class ExplainScreen(ModalScreen[ActionSuggestion | None]):
    """A modal showing an :class:`ExplainPanel`; dismissed with the chosen action or None."""

    DEFAULT_CSS = """
    ExplainScreen { align: center middle; }
    ExplainScreen ExplainPanel { width: 90%; height: 90%; max-width: 120; }
    """

    def __init__(self, diagnosis: Diagnosis) -> None:
        super().__init__()
        self._diagnosis = diagnosis

    def compose(self) -> ComposeResult:
        yield ExplainPanel(self._diagnosis)

    def on_mount(self) -> None:
        self.query_one(ExplainPanel).focus()

    def on_explain_panel_action_chosen(self, message: ActionChosen) -> None:
        self.dismiss(message.action)

    def on_explain_panel_closed(self, message: Closed) -> None:
        self.dismiss(None)
