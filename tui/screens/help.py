"""The ``?`` help screen and the command palette's key commands: every key of the app, of each
pane and widget on screen and of the dialogs, from their own BINDINGS (nothing is listed by hand)."""

from __future__ import annotations

import re
from functools import partial
from typing import TYPE_CHECKING
from collections.abc import Iterable, Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.keys import format_key
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, Static

from cudatui.gdbbridge import N_, tr
from cudatui.tui.widgets.explain_view import ExplainPanel
from cudatui.tui.widgets.file_finder import FileFinder
from cudatui.tui.screens.goto_focus import GotoFocusScreen
from cudatui.tui.widgets.race_side import RaceSideScreen

if TYPE_CHECKING:
    from textual.app import App

LONG_NAMES = {
    "restart": N_("Run (restart the program, or a replay from its start)"),
    "rejoin": N_("Rejoin: follow the instructor's newest session"),
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
    "open_guide": N_("Open the full-screen guide"),
}
"""What the help and the command palette call an action whose key's description is short (``Cont``)."""


def long_name(binding: Binding) -> str:
    """The binding's name in the palette: ``Continue to the next stop`` for ``Cont``."""
    return LONG_NAMES.get(binding.action, binding.description)


def _run_on(app: App[object], widget: Widget, action: str) -> None:
    """Run ``widget``'s key ``action`` from the palette: its pane shown and focused first."""
    show = getattr(app, "show_pane", None)
    if show is not None and widget.id and app.query(f"#tab-{widget.id}"):  # a side pane (others are on screen)
        show(widget.id)
    if widget.focusable:
        widget.focus()
    app.call_after_refresh(app.run_action, action, widget)


def typed(key: str) -> str:
    """A key as a person types it: ``]`` for ``right_square_bracket``, ``ctrl+t``, ``→`` for ``right``."""
    modifiers, _, name = key.strip().rpartition("+")
    shown = format_key(name) if len(name) > 1 else name
    return f"{modifiers}+{shown}" if modifiers else shown


def key_label(binding: Binding) -> str:
    """``n / f10`` from ``Binding("n,f10", ...)``, ``]`` from ``right_square_bracket`` (its
    ``key_display`` when it has one)."""
    return binding.key_display or " / ".join(typed(k) for k in binding.key.split(","))


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

    q quits cudatui from here too (a dialog never blocks quitting); it is not listed again.
    """

    BINDINGS = [Binding("escape,question_mark", "close", "Close help"), Binding("q", "app.quit", "", show=False)]

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


def action_name(action: str) -> str:
    """``resume`` from ``resume('next')``, ``sanitize`` from ``app.sanitize``."""
    return action.split("(", 1)[0].removeprefix("app.")


def offered(app: App[object], bindings: Sequence[BindingType], overridden: frozenset[str] = frozenset()) -> list[Binding]:
    """The ``bindings`` the user can use here: not an action the app refuses (its
    ``REFUSED_ACTIONS``: a follower's moving keys), not a key a subclass binds again."""
    refused = getattr(app, "REFUSED_ACTIONS", frozenset())
    return [b for b in bindings if isinstance(b, Binding) and action_name(b.action) not in refused
            and not {k.strip() for k in b.key.split(",")} <= overridden]


def own_bindings(cls: type) -> list[Binding]:
    """The bindings ``cls`` declares itself (not those it inherits from Textual's widgets)."""
    return [b for b in cls.__dict__.get("BINDINGS", []) if isinstance(b, Binding)]


def app_classes(app: App[object]) -> list[type]:
    """The app's class and its cudatui base classes that bind keys (the navigation keys')."""
    return [cls for cls in type(app).__mro__ if cls.__module__.startswith("cudatui.") and own_bindings(cls)]


def title_of(widget: Widget) -> str:
    """A pane's title (its border title), else its class name in words ("Source view")."""
    if widget.border_title:
        return str(widget.border_title)
    words = re.findall(r"[A-Z][a-z]*", type(widget).__name__)
    return " ".join([words[0], *(w.lower() for w in words[1:])]) if words else type(widget).__name__


def keyed_widgets(app: App[object]) -> list[tuple[str, Widget, list[Binding]]]:
    """Each cudatui widget class of the main screen that binds keys, once, in screen order:
    (title, its first widget, its own bindings)."""
    seen: set[type] = set()
    found = []
    for widget in app.screen_stack[0].walk_children(with_self=False):
        cls = type(widget)
        if cls in seen or not cls.__module__.startswith("cudatui."):
            continue
        seen.add(cls)
        bindings = own_bindings(cls)
        if bindings:
            found.append((title_of(widget), widget, bindings))
    return found


def key_sections(app: App[object], shown: Sequence[Sequence[BindingType]] = ()) -> list[tuple[str, Sequence[BindingType]]]:
    """The help screen's sections: the app's keys, each widget's, each dialog's (but a class whose
    bindings are ``shown`` already, in a section of the caller's)."""
    dialogs = (FileFinder, GotoFocusScreen, RaceSideScreen, ExplainPanel, HelpScreen)
    sections: list[tuple[str, Sequence[BindingType]]] = []
    overridden: frozenset[str] = frozenset()
    for cls in app_classes(app):
        if not any(cls.__dict__.get("BINDINGS") is b for b in shown):
            sections.append(("Debugger" if cls.__name__ == "DebuggerApp" else title_of_class(cls),
                             offered(app, cls.__dict__["BINDINGS"], overridden)))
        overridden |= {k.strip() for b in own_bindings(cls) for k in b.key.split(",")}
    sections += [(title, offered(app, bindings)) for title, _, bindings in keyed_widgets(app)
                 if any(b.description for b in bindings)]
    sections += [(f"Dialog: {title_of_class(cls)}", own_bindings(cls)) for cls in dialogs]
    return sections


def title_of_class(cls: type) -> str:
    words = re.findall(r"[A-Z][a-z]*", cls.__name__.removesuffix("Screen").removesuffix("App"))
    return " ".join([words[0], *(w.lower() for w in words[1:])]) if words else cls.__name__


def key_commands(app: App[object]) -> Iterable[SystemCommand]:
    """A palette command for every key of the app and of each pane (not the inputs' own keys)."""
    overridden: frozenset[str] = frozenset()
    for cls in app_classes(app):
        for binding in offered(app, own_bindings(cls), overridden):
            if binding.description and binding.action != "quit":
                yield SystemCommand(long_name(binding), f"key: {key_label(binding)}",
                                    partial(app.run_action, binding.action))
        overridden |= {k.strip() for b in own_bindings(cls) for k in b.key.split(",")}
    for title, widget, bindings in keyed_widgets(app):
        if isinstance(widget, Input):
            continue
        for binding in offered(app, bindings):
            if not binding.description:
                continue
            yield SystemCommand(f"{title}: {binding.description}", f"key: {key_label(binding)}",
                                partial(_run_on, app, widget, binding.action))
