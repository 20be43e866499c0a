"""The ``?`` help screen (every key of the app and of each pane, from their own BINDINGS) and the
command palette's names for them."""

from __future__ import annotations

from functools import partial
from typing import Any, Iterator, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cudatui.gdbbridge import N_, tr


LONG_NAMES = {
    "restart": N_("Run (restart the program, or a replay from its start)"),
    "resume('continue')": N_("Continue to the next stop"),
    "resume('next')": N_("Next: step over a line"),
    "resume('step')": N_("Step into a call"),
    "resume('finish')": N_("Finish: run until the frame returns"),
    "toggle_breakpoint": N_("Breakpoint on or off at the source cursor"),
    "goto_focus": N_("Go to a CUDA focus (block, thread, warp, lane)"),
    "console": N_("Console: type a gdb command"),
    "interrupt": N_("Interrupt the running program"),
    "guide": N_("The full-screen lesson guide"),
    "toggle_guide": N_("Hide or show the guide strip"),
    "sanitize_lesson": N_("Run the lesson's sanitizer tool (Sanitize pane)"),
    "back": N_("Back to the lesson picker (ctrl+q quits)"),
    "open": N_("Open the full-screen guide"),
}
"""What the help and the command palette call an action whose key's description is short (``Cont``)."""


def long_name(binding: Binding) -> str:
    """The binding's name in the palette: ``Continue to the next stop`` for ``Cont``."""
    return LONG_NAMES.get(binding.action, binding.description)


def pane_commands(app: Any, panes: Sequence[Any]) -> Iterator[SystemCommand]:
    """A palette command for each key of each side pane (``Locals: Watch``): it shows the pane,
    focuses it and runs the key's action there. ``panes`` are the app's PaneSpecs."""
    for spec in panes:
        for binding in getattr(spec.cls, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description:
                yield SystemCommand(f"{spec.title}: {binding.description}", f"key {key_label(binding)} in {spec.title}",
                                    partial(_in_pane, app, spec.id, binding.action))


def _in_pane(app: Any, pane_id: str, action: str) -> None:
    pane = app.show_pane(pane_id)
    pane.focus()
    app.call_after_refresh(app.run_action, action, pane)


def key_label(binding: Binding) -> str:
    """``n / f10`` from ``Binding("n,f10", ...)``."""
    return " / ".join(k.strip() for k in binding.key.split(","))


def bindings_table(title: str, bindings: Sequence[BindingType]) -> Table:
    """A two-column table of keys and what they do."""
    table = Table(title=tr(title), title_justify="left", title_style="bold", show_header=False, box=None, expand=True)
    table.add_column("key", style="bold cyan", no_wrap=True, width=22)
    table.add_column("action")
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            table.add_row(key_label(binding), tr(long_name(binding)))
    return table


class HelpScreen(ModalScreen[None]):
    """Lists the keys.

    | Key | Action |
    | :- | :- |
    | escape / ? | Close |
    | q | Quit cudatui (a dialog never blocks quitting) |
    """

    BINDINGS = [Binding("escape,question_mark", "close", "Close help"), Binding("q", "app.quit", "Quit")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%; border: round $accent;
                                   background: $surface; padding: 0 1; }
    """

    def __init__(self, sections: Sequence[tuple[str, Sequence[BindingType]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(tr("cudatui keys  (escape closes; the command palette, ctrl+p, lists every action)"),
                              style="bold"))
            for title, bindings in self.sections:
                yield Static(bindings_table(title, bindings))

    def action_close(self) -> None:
        self.dismiss(None)
