"""The lesson picker of ``cudatui demo`` (no lesson named): one row per lesson, Enter opens it."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from cudatui.gdbbridge import N_, cells, tr
from cudatui.kernels.lessons import LESSONS, Lesson
from cudatui.tui.widgets.footer import KeyBar
from cudatui.tui.plans.demo_plan import packaged_recording
from cudatui.tui.screens.help import HelpScreen


def fit_words(text: str, width: int) -> str:
    """``text`` in ``width`` cells, cut after a whole word with ``…`` where it is longer."""
    if cells(text) <= width:
        return text
    cut = text[: max(1, width - 1)]
    while cells(cut) > width - 1:
        cut = cut[:-1]
    words = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return words.rstrip(" ,:;·-") + "…"


def lesson_row(lesson: Lesson, width: int = 200) -> tuple[str, Text, str, Text]:
    """Name, title (with the symptom under it) in ``width`` cells, tool, and whether a recording
    is installed."""
    title = Text(fit_words(tr(lesson.title), width), style="bold")
    title.append(f"\n{fit_words(tr(lesson.symptom), width)}", style="italic dim")
    recorded = (Text(tr("recorded"), style="green") if packaged_recording(lesson)
                else Text(tr("live only"), style="yellow"))
    return lesson.name, title, lesson.tool, recorded


TABLE_SPARE = 44
"""Cells of a row that are not the title's: the lesson, tool and replay columns, the cell padding
and the table's margins."""


class LessonTable(DataTable[str | Text]):
    """The lessons' table: Enter (shown in the key bar) selects the row, in order with the keys
    before it (a screen's priority binding ran ahead of a Down in the same burst)."""

    BINDINGS = [Binding("enter", "select_cursor", "Open")]


class LessonPicker(Screen[str]):
    """Pick a lesson: its title, the symptom users see, and the tool that catches the bug.

    | Key | Description |
    | :- | :- |
    | up / down | Move between lessons. |
    | enter | Open the highlighted lesson. |
    | ? | The keys. |
    | q / escape | Quit without opening a lesson. |
    """

    BINDINGS = [
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q,escape", "app.quit", "Quit"),
    ]

    MOVES = [
        Binding("up,down", "", N_("Move between lessons"), key_display="up / down"),
        Binding("pageup,pagedown,home,end", "", N_("A page up or down, the first or last lesson"),
                key_display="pgup / pgdn / home / end"),
    ]
    """The table's own keys, for the help (Textual's DataTable binds them)."""

    DEFAULT_CSS = """
    LessonPicker { align: center top; }
    LessonPicker #picker-title { height: auto; padding: 1 2 0 2; }
    LessonPicker DataTable { height: 1fr; margin: 1 2; }
    LessonPicker #picker-hint { height: auto; padding: 0 2; color: $text-muted; }
    """

    def __init__(self, highlight: str | None = None) -> None:
        super().__init__()
        self.highlight = highlight
        """The lesson whose row is highlighted first."""

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("cudatui demo", "bold"), tr(" · bundled CUDA bugs to debug: pick a lesson")),
                     id="picker-title")
        table = LessonTable(id="lessons", cursor_type="row", zebra_stripes=True)
        table.add_column(tr("lesson"), key="name")
        table.add_column(tr("title / symptom"), key="title")
        table.add_column(tr("tool"), key="tool")
        table.add_column(tr("replay"), key="replay")
        width = max(20, self.app.size.width - TABLE_SPARE)  # the other columns, margins and padding
        for lesson in LESSONS:
            table.add_row(*lesson_row(lesson, width), key=lesson.name, height=2)
        yield table
        yield Static(tr("Enter opens the lesson: live with cuda-gdb and a GPU, else its recording (REPLAY); q there "
                        "comes back here. Also: cudatui demo LESSON [--live | --replay] [--fixed], cudatui demo --list."),
                     id="picker-hint")
        yield KeyBar(compact=True)

    def on_mount(self) -> None:
        names = [lesson.name for lesson in LESSONS]
        if self.highlight in names:
            self.query_one(DataTable).move_cursor(row=names.index(self.highlight))

    @property
    def highlighted(self) -> str:
        """The name of the highlighted lesson."""
        table = self.query_one(DataTable)
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen([(N_("Lesson picker"), [*self.MOVES, *LessonTable.BINDINGS, *self.BINDINGS])]))

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        """The app ends with the lesson chosen, the picker still on the screen: popped first, the
        app showed a blank screen before it ended, and a key typed once the picker had gone was
        thrown away with the terminal's input when the app stopped (ctrl+q typed while the lesson
        loads was lost)."""
        self.app.exit(str(event.row_key.value))

