"""The lesson guide: what the lesson is about, what to look at, what to try next, the fix.

:class:`Guide` holds a lesson's guide in one mode (live or replay); :func:`sections` turns it
into titled sections (the lesson, the symptom, the REPLAY line, the recorded path, "Look at",
"Try next", the fix). :class:`GuidePane` is the strip above the status bar: its first lines and a
hint, scrollable (wheel, or up/down once Tab reaches it) through every section; a click or
enter opens the full-screen view (:mod:`cudatui.tui.screens.guide_screen`). In a replay a step that
only works live says so and why (:func:`replay_note`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from cudatui.gdbbridge import N_, tr
from cudatui.kernels.lessons import Lesson

MODE_STYLES = {"live": "bold black on green", "replay": "bold white on magenta", "follow": "bold black on cyan"}
"""How the mode label (LIVE / REPLAY / FOLLOW) is drawn, here and in the status bar."""

SANITIZER_STEP = "S runs "
"""How a step that runs the lesson's compute-sanitizer tool begins."""


def replay_note(step: str, lesson: str) -> str:
    """Why ``step`` of ``lesson`` cannot be done as written in a replay, or ''."""
    if "--fixed" in step or "--torch" in step:
        return tr("live only: only the buggy run of the bundled kernel is recorded (cudatui demo {lesson} "
                  "{flag} on a machine with cuda-gdb and a GPU)").format(
                      lesson=lesson, flag="--fixed" if "--fixed" in step else "--torch")
    if step.startswith(SANITIZER_STEP):
        return tr("in a replay there is no program to run the tool on: S shows the tool's report where the "
                  "recording holds one, else says so")
    if step.startswith("GPU:"):
        return tr("in a replay the GPU pane shows the recorded samples where the recording holds them")
    if step.startswith("SASS"):
        return tr("in a replay the SASS pane shows the disassembly where the recording holds it")
    return ""


@dataclass(frozen=True)
class Guide:
    """What the guide shows: from the lesson's metadata, plus the replay's recorded path."""

    name: str
    title: str
    symptom: str
    tool: str
    look_at: tuple[str, ...]
    next_steps: tuple[str, ...]
    fix: str
    mode: str
    """``live`` or ``replay``."""
    banner: str
    """``REPLAY — recorded on ...: why``."""
    recorded_path: str = ""
    """The keys of the recorded path (replay only)."""
    fixed: bool = False
    """The run is the fixed kernel's (``--fixed``, live only)."""

    @classmethod
    def for_lesson(cls, lesson: Lesson, mode: str, banner: str, recorded_path: str = "",
                   fixed: bool = False) -> Guide:
        """The guide of ``lesson`` in ``mode``."""
        return cls(lesson.name, lesson.title, lesson.symptom, lesson.tool, lesson.look_at, lesson.next_steps,
                   lesson.fix, mode, banner, recorded_path, fixed)

    def note(self, step: str) -> str:
        """What the guide adds to ``step`` in this mode (a replay's "live only: why")."""
        return replay_note(step, self.name) if self.mode == "replay" else ""


def mode_label(mode: str) -> Text:
    """`` REPLAY `` or `` LIVE ``, in the mode's colours."""
    return Text(f" {mode.upper()} ", style=MODE_STYLES.get(mode, "reverse"))


def header_text(guide: Guide, hint: str = "") -> Text:
    """``REPLAY  race · title`` then the symptom and the tool."""
    text = mode_label(guide.mode)
    text.append(f" {guide.name}", style="bold")
    text.append(f" · {tr(guide.title)}")
    if guide.fixed:
        text.append("  " + tr("(--fixed: the fixed kernel runs)"), style="bold green")
    if hint:
        text.append(f"  {hint}", style="dim")
    text.append("\n" + tr("Symptom: "), style="bold")
    text.append(tr(guide.symptom))  # a tool's own message stays as the tool prints it
    text.append(" · " + tr("caught by "), style="dim")
    text.append(guide.tool, style="bold")
    return text


def list_text(heading: str, items: tuple[str, ...], numbered: bool, notes: tuple[str, ...] = ()) -> Text:
    """A heading and one line per item (``1.`` or ``•``), each with its note under it."""
    text = Text()
    text.append(heading, style="bold underline")
    for number, item in enumerate(items, 1):
        text.append(f"\n{number}. " if numbered else "\n• ", style="bold")
        text.append(tr(item))
        note = notes[number - 1] if number <= len(notes) else ""
        if note:
            text.append(f"\n   {note}", style="italic yellow")
    return text


def sections(guide: Guide) -> list[tuple[str, Text]]:
    """The guide's sections, in order, as (id, text)."""
    path = Text.assemble((tr("Recorded path: "), "bold"), guide.recorded_path or tr("(live: no recording)"))
    if guide.recorded_path:
        path.append("\n" + tr("(the keys the recording was made with; a step off this path is not in it)"),
                    style="dim")
    return [
        ("header", header_text(guide)),
        ("banner", Text(guide.banner, style="italic")),
        ("path", path),
        ("look", list_text(tr("Look at"), guide.look_at, False, tuple(map(guide.note, guide.look_at)))),
        ("next", list_text(tr("Try next"), guide.next_steps, True, tuple(map(guide.note, guide.next_steps)))),
        ("fix", Text.assemble((tr("The fix: "), "bold"), tr(guide.fix))),
    ]


class GuidePane(VerticalScroll, can_focus=True):
    """The lesson's guide, above the status bar: the header and a hint where the screen is small,
    every section where it is wide; the wheel (or up/down once focused) scrolls through them all.

    | Key | Action |
    | :- | :- |
    | up / down, pageup / pagedown | Scroll the guide strip |
    | enter | Open the full-screen guide (also a click, or h anywhere) |
    """

    BINDINGS = [Binding("enter", "open_guide", "Full guide")]

    DEFAULT_CSS = """
    GuidePane { height: auto; max-height: 4; border-top: solid $accent; padding: 0 1; background: $boost;
                scrollbar-size-vertical: 1; }
    GuidePane:focus { border-top: solid $success; }
    GuidePane.-wide { max-height: 8; }
    GuidePane > Static { height: auto; }
    GuidePane > #guide-hint { color: $text-muted; }
    GuidePane > #guide-header, GuidePane > #guide-hint { text-wrap: nowrap; text-overflow: ellipsis; }
    GuidePane.-wide > #guide-header, GuidePane.-wide > #guide-hint { text-wrap: wrap; }
    """

    HINT = N_("h or a click: the whole guide (recorded path, look at, try next, the fix); the wheel scrolls")

    class Open(Message):
        """The user asked for the full-screen guide."""

    def __init__(self, guide: Guide, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.guide = guide
        """What is shown."""

    def compose(self) -> ComposeResult:
        for section, text in sections(self.guide):
            yield Static(text, id=f"guide-{section}")
            if section == "header":
                yield Static(tr(self.HINT), id="guide-hint")

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Open())

    def action_open_guide(self) -> None:
        self.post_message(self.Open())
