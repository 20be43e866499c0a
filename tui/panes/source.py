"""The source pane: the selected frame's file (or any file of the program), the current line, a
breakpoint gutter and a cursor; search, go to line, the file finder and frame up/down keys."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.syntax import Syntax
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.reactive import reactive
from textual.widgets import Input

from cudatui.gdbbridge import (
    Breakpoint, StopState, find_source, missing_reason, no_source_lines,
    read_source, short_name, tr,
)
from cudatui.tui.widgets.inline_input import InlineInput
from cudatui.tui.messages import BreakpointToggled, FilesWanted, GutterClicked, SourceFolderChosen
from cudatui.tui.widgets.source_search import Search, find_matches, shorten_left
from cudatui.tui.widgets.source_view import SourceView

from .base import InfoLine, StatePane

LEXERS = {".cu": "cuda", ".cuh": "cuda", ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp",
          ".py": "python"}
"""Lexers by file suffix: guessing one loads every Pygments plugin (seconds, with IPython installed)."""

MAX_HIGHLIGHT = 2 * 1024 * 1024
"""Files larger than this are shown without syntax colours."""


def display_path(path: Path) -> str:
    """``path`` relative to the current directory when it lies below it, else as it is."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def load_lines(path: Path) -> list[Text]:
    """The file's lines, cleaned and syntax-coloured (ANSI colours: dark and light themes)."""
    code = read_source(path)
    if len(code) > MAX_HIGHLIGHT:
        return [Text(line) for line in code.split("\n")]
    lexer = LEXERS.get(path.suffix.lower()) or Syntax.guess_lexer(str(path), code)
    return Syntax(code, lexer, theme="ansi_dark").highlight(code).split("\n", allow_blank=True)


@dataclass(frozen=True)
class Shown:
    """The file shown: the name gdb knows it by and the local file read (None if missing)."""

    debugger_path: str
    local: Path | None


class SourcePane(StatePane):
    """The source file of the selected frame, following every stop, frame and focus change; any
    other file of the program can be opened (``o``) and searched.

    | Key | Action |
    | :- | :- |
    | up/down, pageup/pagedown | Move the cursor |
    | / | Search the file; n / N: next / previous match (while a search is shown); escape ends it |
    | ctrl+g | Go to a line |
    | o | Open a source file of the program (fuzzy finder over gdb's list) |
    | u / d | Up (caller) / down (callee) one frame |
    | b / F9 (app) | Toggle a breakpoint on the cursor line, in any open file |
    | click the gutter | Toggle a breakpoint on that line |
    | m | Run memcheck on the program (the next step a note may offer) |
    """

    BINDINGS = [
        Binding("slash", "search", "Search", key_display="/", show=False),
        Binding("n", "search_step(1)", "Next match"),
        Binding("N", "search_step(-1)", "Previous match"),
        Binding("escape", "end_search", "End search", show=False),
        Binding("ctrl+g", "goto_line", "Go to line", show=False),
        Binding("o", "open_file", "Open file", show=False),
        Binding("u", "app.frame(1)", "Up frame", show=False),
        Binding("d", "app.frame(-1)", "Down frame", show=False),
        Binding("m", "app.sanitize", "memcheck", show=False),
    ]

    DEFAULT_CSS = """
    SourcePane { height: 1fr; layout: vertical; }
    SourcePane > #source-title { height: 1; background: $boost; padding: 0 1; text-style: bold; }
    SourcePane > #source-missing { height: auto; padding: 1 2; color: $text-warning; display: none; }
    SourcePane > #source-note { height: auto; padding: 0 1; color: $text-warning; background: $warning 10%; display: none; }
    SourcePane > #source-input { height: 1; border: none; padding: 0 1; }
    """

    shown: reactive[Shown | None] = reactive(None)
    """The file shown."""

    def __init__(self, search_dirs: Callable[[], tuple[str, ...]] = tuple, *, recorded: bool = False,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self._search_dirs = search_dirs
        """Where files are looked for: the Debugger's config says (D adds a folder)."""
        self.recorded = recorded
        self._cache: dict[Path, list[Text]] = {}
        self._asking = ""
        """What the input asks for: "search" or "line"."""
        self._line: int | None = None
        """The line the title names: the stop's, or the one opened or gone to."""

    def compose(self) -> ComposeResult:
        yield InfoLine("no source yet", id="source-title")
        yield InfoLine("", id="source-note")
        yield InfoLine("", id="source-missing")
        yield SourceView(id="source-view")
        yield InlineInput(placeholder="", transient=True, compact=True, id="source-input")

    @property
    def search_dirs(self) -> tuple[str, ...]:
        return self._search_dirs()

    @property
    def view(self) -> SourceView:
        return self.query_one(SourceView)

    def cursor_location(self) -> tuple[str, int] | None:
        """The debugger's name of the shown file and the cursor line, if a file is shown."""
        if self.shown is None or self.shown.local is None:
            return None
        return self.shown.debugger_path, self.view.cursor

    def render_state(self, state: StopState, previous: StopState | None) -> None:
        frame = state.frame
        if (previous is not None and state.stop is previous.stop and frame == previous.frame
                and self.shown is not None and self.shown.local is not None and self.view.display):
            # the same stop and frame (breakpoints changed): the file opened stays, with its new marks
            view = self.view
            view.show(view.lines, view.current, view.cursor, self._marks(state.breakpoints))
            return
        self._note("")
        if state.stop.exited:
            self._show_end(state)
            return
        if frame is None or not (frame.fullname or frame.file):
            host = state.host.user_frame if state.host is not None else None
            lines = no_source_lines(state, host)
            if host is not None and find_source(host.file, self.search_dirs, recorded=self.recorded) is not None:
                self._note(lines[0] + " · " + tr("8: SASS"), whole="\n".join(lines))  # above the user's own code
                self.open(host.file, host.line, current=True)
                return
            self._show_missing("\n".join(lines))
            return
        self.open(frame.fullname or frame.file or "", frame.line, current=True)

    def _show_end(self, state: StopState) -> None:
        """The program's end: the exception it died of at its frame (shown), or its exit code, and the next step."""
        code = state.stop.exit_code if state.stop.exit_code is not None else "?"
        error, step = state.notes.error, state.notes.next_step or "r runs it again"
        frame = error.frame if error is not None else None
        if error is None:
            self._show_missing(f"the program exited with code {code}; {step}")
        elif frame is None or find_source(frame.file, self.search_dirs, recorded=self.recorded) is None:
            where = f" at {frame.where}" if frame is not None else ""
            self._show_missing(f"the program exited with code {code}: {error.summary}{where}\n{step}")
        else:
            self.open(frame.file, frame.line, current=True)
            self._note(f"exited with code {code}: {error.summary} at {os.path.basename(frame.file)}:{frame.line}"
                       f"\n{step}")

    def note(self, text: str) -> None:
        """Say ``text`` above the file (or the line saying why there is none) until the next stop."""
        self._note(text)

    def _note(self, text: str, whole: str | None = None) -> None:
        """The note above the file (``whole``: the longer text its tooltip shows)."""
        note = self.query_one("#source-note", InfoLine)
        note.show(text)
        note.tooltip = whole
        if note.display != bool(text):
            note.display = bool(text)

    def open(self, path: str, line: int | None, *, current: bool = False) -> None:
        """Show ``path`` (as gdb names it) at ``line``; ``current`` marks it as the stop line."""
        local = find_source(path, self.search_dirs, recorded=self.recorded)
        self.shown = Shown(path, local)
        if local is None:
            self._show_missing(missing_reason(path, self.search_dirs) + "\n" + tr("D: choose the folder it is in"))
            return
        if local not in self._cache:
            try:
                self._cache[local] = load_lines(local)
            except OSError as exc:
                self._show_missing(f"source not available: {local}: {exc.strerror or exc}")
                return
        missing = self.query_one("#source-missing")
        if missing.display:
            missing.display = False
        view = self.view
        if not view.display:
            view.display = True
        if view.lines is not self._cache[local] and view.search is not None:
            view.highlight(None)
            self.refresh_bindings()
        stop_line = line if current else (view.current if self._same_as_stop(path) else None)
        view.show(self._cache[local], stop_line, line, self._marks(self.state.breakpoints if self.state else ()))
        self._line = line
        self._show_title()

    def _show_title(self, note: str = "") -> None:
        """The file (shortened from the left to fit), the cursor line, the function of the stop
        shown in it (its short name) and ``note`` (a search)."""
        if self.shown is None or self.shown.local is None:
            return
        view = self.view
        frame = self.state.frame if self.state else None
        func = f" · {short_name(frame.func)}" if frame and self._same_as_stop(self.shown.debugger_path) else ""
        if self._behind_the_kernel(self.shown.debugger_path):
            func = " · " + tr("your Python code behind the kernel")
        search = f" · {note or view.search.describe()}" if note or view.search else ""
        tail = f"{f':{self._line}' if self._line else ''}{func}{search}"
        path = display_path(self.shown.local)
        width = self.query_one("#source-title").content_size.width or self.size.width - 2
        title = shorten_left(path, max(width - len(tail), 12)) + tail
        self.query_one("#source-title", InfoLine).show(title)
        self.query_one("#source-title").tooltip = path + (f"\n{frame.func}" if frame and func else "")

    def on_resize(self) -> None:
        self._show_title()

    def _behind_the_kernel(self, path: str) -> bool:
        """Whether ``path`` is a Python file of the host stack behind a kernel stop without source."""
        state = self.state
        frame = state.frame if state else None
        if state is None or state.host is None or frame is None or frame.fullname or frame.file:
            return False
        return any(f.file == path for thread in state.host.threads for f in thread.frames)

    def _same_as_stop(self, path: str) -> bool:
        frame = self.state.frame if self.state else None
        name = frame.fullname or frame.file if frame else None
        return bool(name) and os.path.basename(name or "") == os.path.basename(path)

    def _show_missing(self, message: str) -> None:
        self.query_one("#source-title", InfoLine).show(message.split("\n")[0].split(": ", 1)[0])
        missing = self.query_one("#source-missing", InfoLine)
        missing.show(message)
        missing.display = True
        self.view.display = False

    def _marks(self, breakpoints: tuple[Breakpoint, ...]) -> dict[int, bool]:
        if self.shown is None:
            return {}
        name = os.path.basename(self.shown.debugger_path)
        marks: dict[int, bool] = {}
        for bp in breakpoints:
            places = [(loc.fullname or loc.file, loc.line, loc.enabled) for loc in bp.locations]
            places.append((bp.fullname or bp.file, bp.line, True))
            for file, line, enabled in places:
                if file and line and os.path.basename(file) == name:
                    marks[line] = marks.get(line, False) or (bp.enabled and enabled)
        return marks

    def on_source_pane_gutter_clicked(self, message: GutterClicked) -> None:
        message.stop()
        if self.shown is not None and self.shown.local is not None:
            self.post_message(BreakpointToggled(self.shown.debugger_path, message.line))

    # -- search, go to line, open a file ----------------------------------------------------

    def _ask(self, what: str, placeholder: str) -> None:
        if not self.view.display and what != "folder":
            self.app.notify("no source file shown", severity="warning")
            return
        self._asking = what
        field = self.query_one("#source-input", InlineInput)
        field.placeholder = placeholder
        field.open("")

    def action_search(self) -> None:
        self._ask("search", "/ search this file (enter: first match from the cursor, escape: cancel)")

    def action_goto_line(self) -> None:
        self._ask("line", f"go to line (1-{len(self.view.lines)})")

    def action_source_folder(self) -> None:
        self._ask("folder", tr("folder of the program's sources (enter: look there too, escape: cancel)"))

    @on(Input.Submitted, "#source-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if self._asking == "folder":
            if text:
                self.post_message(SourceFolderChosen(text))
        elif self._asking == "line":
            self._goto(text)
        elif text:
            view = self.view
            search = Search(text, find_matches([t.plain for t in view.lines], text)).first_from(view.cursor)
            self._move_to(search, "" if search.matches else search.describe())

    def _goto(self, text: str) -> None:
        view = self.view
        if not text.isdigit() or not 1 <= int(text) <= len(view.lines):
            self.app.notify(f"not a line of this file: {text!r} (1-{len(view.lines)})", severity="warning",
                            markup=False)
            return
        view.cursor = self._line = int(text)
        view.center(view.cursor)
        self._show_title()

    def _move_to(self, search: Search, note: str = "") -> None:
        view = self.view
        view.highlight(search)
        self.refresh_bindings()
        if search.current is not None:
            view.cursor = search.current.line
            if not view._well_inside(view.cursor):
                view.center(view.cursor)
        self._show_title(note)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """n, N and escape are the search's only while one is shown (else n is the debugger's next)."""
        if action in ("search_step", "end_search"):
            return self.view.search is not None and self.view.display
        return True

    def action_search_step(self, direction: int) -> None:
        """The next (1) or previous (-1) match."""
        search = self.view.search
        if search is None:
            return
        search, wrapped = search.step(direction)
        note = ""
        if wrapped:
            note = f"{search.describe()} · wrapped to the {'top' if direction > 0 else 'bottom'}"
            self.app.notify(f"search wrapped to the {'top' if direction > 0 else 'bottom'} of the file", timeout=2)
        self._move_to(search, note)

    def action_end_search(self) -> None:
        self.view.highlight(None)
        self.refresh_bindings()
        self._show_title()

    def action_open_file(self) -> None:
        self.post_message(FilesWanted())

    def open_found(self, path: str | None) -> None:
        """Show ``path``, the file the finder chose (None: none was)."""
        if path:
            self.open(path, None)
            self.view.focus()
