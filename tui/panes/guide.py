"""The lesson guide: what the lesson is about, what to look at, what to try next."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from cudatui.kernels.lessons import Lesson

MODE_STYLES = {"live": "bold black on green", "replay": "bold white on magenta", "follow": "bold black on cyan"}
"""How the mode label (LIVE / REPLAY / FOLLOW) is drawn, here and in the status bar."""


@dataclass(frozen=True)
class Guide:
    """What the guide shows: from the lesson's metadata, plus the replay's recorded path."""

    name: str
    title: str
    symptom: str
    tool: str
    look_at: tuple[str, ...]
    next_steps: tuple[str, ...]
    mode: str
    """``live`` or ``replay``."""
    banner: str
    """``REPLAY — recorded on ...: why``."""
    recorded_path: str = ""
    """The keys of the recorded path (replay only)."""

    @classmethod
    def for_lesson(cls, lesson: Lesson, mode: str, banner: str, recorded_path: str = "") -> Guide:
        """The guide of ``lesson`` in ``mode``."""
        return cls(lesson.name, lesson.title, lesson.symptom, lesson.tool, lesson.look_at, lesson.next_steps,
                   mode, banner, recorded_path)


def header_text(guide: Guide) -> Text:
    """``REPLAY  race · title`` then the symptom and the tool."""
    text = Text()
    text.append(f" {guide.mode.upper()} ", style=MODE_STYLES.get(guide.mode, "reverse"))
    text.append(f" {guide.name}", style="bold")
    text.append(f" · {guide.title}")
    text.append("  (h hides this guide)", style="dim")
    text.append("\nSymptom: ", style="bold")
    text.append(guide.symptom)
    text.append(" · caught by ", style="dim")
    text.append(guide.tool, style="bold")
    text.append(f"\n{guide.banner}", style="italic")
    return text


def list_text(heading: str, items: tuple[str, ...], numbered: bool) -> Text:
    """A heading and one line per item (``1.`` or ``•``)."""
    text = Text()
    text.append(heading, style="bold underline")
    for number, item in enumerate(items, 1):
        text.append(f"\n{number}. " if numbered else "\n• ", style="bold")
        text.append(item)
    return text


class GuidePane(Widget, can_focus=False):
    """The lesson's guide, above the status bar. It takes no keys: the app's ``h`` hides and
    shows it. Small screens get its first lines (the header and the recorded path); the app
    adds the ``-wide`` class on screens that show every pane."""

    DEFAULT_CSS = """
    GuidePane { height: auto; max-height: 6; border-top: solid $accent; padding: 0 1; background: $boost; }
    GuidePane.-wide { max-height: 14; }
    GuidePane #guide-lists { height: auto; }
    GuidePane #guide-lists Static { width: 1fr; height: auto; padding-right: 2; }
    GuidePane #guide-path { height: auto; color: $text-muted; }
    """

    guide: reactive[Guide | None] = reactive(None, init=False)
    """What is shown."""

    def __init__(self, guide: Guide, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(GuidePane.guide, guide)

    def compose(self) -> ComposeResult:
        yield Static(id="guide-header")
        yield Static(id="guide-path")
        with Horizontal(id="guide-lists"):
            yield Static(id="guide-look")
            yield Static(id="guide-next")

    def on_mount(self) -> None:
        self._show()

    def watch_guide(self) -> None:
        if self.is_mounted:
            self._show()

    def _show(self) -> None:
        guide = self.guide
        if guide is None:
            return
        self.query_one("#guide-header", Static).update(header_text(guide))
        self.query_one("#guide-look", Static).update(list_text("Look at", guide.look_at, numbered=False))
        self.query_one("#guide-next", Static).update(list_text("Try next", guide.next_steps, numbered=True))
        path = self.query_one("#guide-path", Static)
        path.display = bool(guide.recorded_path)
        path.update(Text.assemble(("Recorded path: ", "bold"), guide.recorded_path,
                                  ("  (other steps are not in the recording)", "dim")))
