"""The ``v`` dialog of the Locals pane: one value whole (the tree elides long values)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class ValueScreen(ModalScreen[None]):
    """A variable's name, type and whole value; escape, q or v closes it.

    | Key | Action |
    | :- | :- |
    | escape / q / v | Close |
    """

    BINDINGS = [Binding("escape,q,v", "close", "Close")]

    DEFAULT_CSS = """
    ValueScreen { align: center middle; }
    ValueScreen > VerticalScroll { width: 90%; height: auto; max-height: 90%; max-width: 120;
                                   border: round $accent; padding: 0 1; background: $panel; }
    """

    def __init__(self, name: str, type_text: str, value: str) -> None:
        super().__init__()
        self.title_text = name
        self.type_text = type_text
        self.value = value

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            head = Text(self.title_text, style="bold")
            if self.type_text:
                head.append(f"  {self.type_text}", style="dim")
            yield Static(head, markup=False)
            yield Static(Text(self.value), markup=False, id="value-text")
            yield Static(Text("escape closes", style="dim"), markup=False)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
