"""Following a recording's path key by key in a real terminal (tmux), and checking after each step
that the screen shows the recorded stop: the source line, the Stack and Locals panes, the focus.

Keys go in as a user types them; a pane is reached by clicking its tab (every pane at 80x24,
all but Locals, Focus and Warps at 160x48) and an input by clicking it, so no key can land in
the wrong widget. At 160x48 each pane is read inside its box; at 80x24 the pane under the tab
row is the one shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cudatui.gdbbridge.record.stop_state import RecordedStep, StopSummary
from cudatui.kernels.lesson_paths import PANE_TITLES

from .tmux import TmuxServer
from .wait import wait_until, within

WAIT = 60.0
FOOTER = {"Stack": "Up frame", "Warps": "Warp watch", "Shared": "Format", "Breaks": "On/off", "Sanitize": "Debug finding"}
"""What the footer shows once a pane has the focus (its own keys)."""
TAB_ROW = re.compile(r"^(Locals\s+Focus\s+Warps\s+)?Stack\s+Breaks")


def race_sides(pane: str) -> tuple[str, str] | None:
    """The two lines of the first race on two lines the Sanitize pane lists (``tile.cu:37/28``:
    ``tile.cu:37`` and ``tile.cu:28``; ``a.cu:3/b.cu:5``), None when it lists none."""
    match = re.search(r"([\w.-]+):(\d+)/(?:([\w.-]+):)?(\d+)\b", pane)
    if match is None:
        return None
    file, line, other, other_line = match.groups()
    return f"{file}:{line}", f"{other or file}:{other_line}"


class ScreenPath:
    """The app in the tmux server's window, ``wide`` at 160x48 (every pane shown)."""

    def __init__(self, tmux: TmuxServer, wide: bool) -> None:
        self.tmux, self.wide = tmux, wide

    # -- reading the screen ----------------------------------------------------------------

    def lines(self) -> list[str]:
        return self.tmux.screen().splitlines()

    def pane_rows(self, title: str) -> list[tuple[int, int, str]]:
        """(row, column, text) of each line of the pane titled ``title``: inside its box at 160x48,
        the area under the tab row at 80x24."""
        lines = self.lines()
        if not self.wide:
            tabs = self.tab_row()
            if tabs is None:
                return []
            rows = []
            for row in range(tabs[0] + 2, len(lines) - 2):  # down to the status bar, or the guide strip's rule
                if lines[row].startswith("─"):
                    break
                rows.append((row, 0, lines[row]))
            return rows
        for top, line in enumerate(lines):
            start = line.find(f"╭─ {title} ")
            if start < 0:
                continue
            end = line.find("╮", start)
            rows = []
            for row in range(top + 1, len(lines)):
                if lines[row][start:start + 1] == "╰":
                    break
                rows.append((row, start + 1, lines[row][start + 1:end]))
            return rows
        return []

    def pane(self, title: str) -> list[str]:
        return [text for _, _, text in self.pane_rows(title)]

    def shows(self, state: StopSummary) -> list[str]:
        """What the screen does not show of ``state`` (empty when it shows all of it)."""
        screen = self.tmux.screen()
        missing = []
        if state.exit:
            if "exited" not in screen:
                missing.append(f"exited {state.exit}")
            return missing
        if state.line:
            if f"{state.file}:{state.line}" not in screen:
                missing.append(f"source title {state.file}:{state.line}")
            if f"▶{state.line}" not in screen.replace(" ", ""):
                missing.append(f"source line ▶{state.line}")
        if state.block and f"block {state.block} thread {state.thread}" not in screen:
            missing.append(f"focus block {state.block} thread {state.thread}")
        return missing

    def stack_shows(self, state: StopSummary) -> bool:
        """The Stack pane lists the stop's function at its file and line."""
        where = f"{state.file}:{state.line}" if state.line else ""
        return any(state.func in line and where in line for line in self.pane("Stack"))

    def locals_show(self, state: StopSummary) -> bool:
        """The Locals tree lists the stop's locals by name, in order (its top-level rows that fit
        the pane: a row is ``▶ name  value  type``, a child row starts with a tree guide)."""
        names = []
        for line in self.pane("Locals"):
            words = line.split()
            if not words and names:  # the tree's rows are contiguous: its end
                break
            if not words or words[0] in ("├", "└", "│"):
                continue
            if words[0].startswith("w:") or line.strip().startswith(("no locals", "outer frame:")):  # the watch input; notes
                break
            name = words[1] if words[0] in ("▶", "▼") and len(words) > 1 else words[0]
            if re.fullmatch(r"[A-Za-z_$][\w$]*", name):  # not a scrollbar's glyph
                names.append(name)
        wanted = [name for name in state.locals.split(",") if name]
        return bool(names or not wanted) and names == wanted[:len(names)]

    # -- doing the steps -------------------------------------------------------------------

    def wait(self, done, why: str, timeout: float = WAIT) -> None:
        """Until ``done()``, looking again each time the app draws (:meth:`TmuxServer.pause`)."""
        wait_until(done, timeout, lambda: f"{why}:\n{self.tmux.screen()}", every=1.0, pause=self.tmux.pause)

    def within(self, done, timeout: float):
        """``done()``'s true value within ``timeout`` seconds, else None (a step tried again),
        looking as :meth:`wait` does."""
        return within(done, timeout, every=1.0, pause=self.tmux.pause)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def text(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)

    def click_text(self, pattern: str) -> int:
        """Click the first place on the screen matching ``pattern`` (a regex) once it shows one;
        its row. A tab's underline moves a frame before its pane is shown (Textual switches the
        content on the tab's message), so a pane just clicked to may not show it yet."""
        def found() -> tuple[int, int] | None:
            lines = self.lines()
            for row, line in enumerate(lines):
                match = re.search(pattern, line)
                if match:
                    return match.start(), row
            return None

        place = wait_until(found, WAIT, lambda: f"something like {pattern!r} to click:\n{self.tmux.screen()}",
                           every=1.0, pause=self.tmux.pause)
        self.tmux.click(place[0] + 1, place[1])
        return place[1]

    def tab_row(self) -> tuple[int, str] | None:
        """The row of the tabs and its tab labels (what precedes the right column at 160x48)."""
        for row, line in enumerate(self.lines()):
            if TAB_ROW.match(line):
                return row, line.split("│", 1)[0]
        return None

    def show(self, pane_id: str) -> None:
        """Click the pane's tab, unless its box is on the screen already (160x48: Locals, Focus
        and Warps are always shown, the others are tabs under the source)."""
        title = PANE_TITLES[pane_id]

        def found() -> bool:  # the box, or the tab (a notification over the tab row is clicked away)
            tabs = self.tab_row()
            if (self.wide and f"╭─ {title} " in self.tmux.screen()) or (
                    tabs is not None and re.search(rf"\b{title}\b", tabs[1]) is not None):
                return True
            if tabs is not None:
                self.dismiss_notification(range(tabs[0], tabs[0] + 1))
            return False

        self.wait(found, f"the {title} pane or its tab")
        if self.wide and f"╭─ {title} " in self.tmux.screen():
            return

        def spot() -> tuple[int, int]:
            tabs = self.tab_row()
            assert tabs is not None, "no tab row:\n" + self.tmux.screen()
            row, labels = tabs
            label = re.search(rf"\b{title}\b", labels)
            assert label is not None, f"no {title} tab in {labels!r}"
            return label.start() + 1, row

        def clicked() -> bool:  # a click the app took while busy (a replay restarting) may be lost: click again;
            where = spot()      # at once if the tabs moved away from it (a stop's banner came above them)
            self.tmux.click(*where)
            return self.within(lambda: "shown" if self.tab_shown(title) else self.tab_row() is not None and spot() != where and "moved",
                               5.0) == "shown"

        self.wait(clicked, f"the {title} tab")

    def tab_shown(self, title: str) -> bool:
        """Whether the tab area shows ``title``'s pane: its tab's underline (the lit segment of the
        line under the tabs, between ``╸`` and ``╺``) sits under the title."""
        tabs = self.tab_row()
        lines = self.lines()
        if tabs is None or tabs[0] + 1 >= len(lines):
            return False
        row, labels = tabs
        label = re.search(rf"\b{title}\b", labels)
        if label is None:
            return False
        start, end, under = label.start(), label.end(), lines[row + 1]
        return (start == 0 or under[start - 1:start] == "╸") and (end >= len(under) or under[end] in "╺ ")

    def focus_source(self) -> None:
        """Click the source text (not its gutter), so that keys go to the debugger."""
        self.tmux.click(40 if not self.wide else 30, 3)

    def dismiss_notification(self, rows: range) -> bool:
        """Whether a notification lies over ``rows`` of the screen: its left edge ``▌`` in one
        column of three rows or more, one of them in ``rows`` (a scrollbar's thumb is one row).
        One found is clicked away, as a user does, once: until it has gone from the screen, a
        second click could reach it while Textual removes it (Textual 8.2.8 then fails in
        ``Screen._forward_event``: the toast has no parent)."""
        lines = self.lines()
        def edge(row: int, column: int) -> bool:
            return 0 <= row < len(lines) and lines[row][column:column + 1] == "▌"

        for row in rows:
            for column in range(len(lines[row]) if 0 <= row < len(lines) else 0):
                if any(all(edge(top + i, column) for i in range(3)) for top in (row - 2, row - 1, row)):
                    self.tmux.click(column + 2, row)
                    self.wait(lambda: self.lines()[row][column:column + 1] != "▌", "the notification clicked to go")
                    return True
        return False

    def covered(self, pane_title: str) -> bool:
        """Whether a notification lay over the pane (a click there would dismiss the notification
        instead of reaching the pane); it is clicked away."""
        rows = [row for row, _, _ in self.pane_rows(pane_title)]
        return bool(rows) and self.dismiss_notification(range(rows[0], rows[-1] + 1))

    def click_into(self, pane_title: str, where: Callable[[], tuple[int, int] | None]) -> None:
        """Click inside the pane at ``where()`` (column, row; read again before each click: the
        panes move while a stop's banner settles, and a notification over the pane is clicked
        away first) until the footer shows the pane's keys."""
        label = FOOTER.get(pane_title)

        def clicked() -> bool:  # the spot is read once per try: the one checked is the one clicked
            spot = None if self.covered(pane_title) else where()
            if spot is None:
                return False
            self.tmux.click(*spot)
            return label is None or self.within(lambda: label in self.lines()[-1], 3.0) is not None

        self.wait(clicked, f"the {pane_title} pane, not under a notification, then its keys in the footer")

    def table_rows(self, pane_title: str, pattern: str) -> tuple[tuple[int, int], list[tuple[int, int, str]], int] | None:
        """The header line (row, column) of the table in pane ``pane_title``, the rows under it and
        the index of the first one matching ``pattern`` (None while there is none)."""
        found = self.pane_rows(pane_title)
        header = next((i for i, (_, _, text) in enumerate(found) if text.split()[:1] in (["#"], ["Count"])), None)
        if header is None:
            return None
        body = found[header + 1:]
        index = next((i for i, (_, _, text) in enumerate(body) if re.search(pattern, text)), None)
        return None if index is None else (found[header][:2], body, index)

    def cursor_to(self, pane_title: str, pattern: str) -> None:
        """Put the cursor of the table in pane ``pane_title`` on its first row matching
        ``pattern``, as a user does with the keyboard: a click on the table's header gives it the
        focus without moving its cursor (a click on a row selects it: Breaks would open that
        breakpoint's source, and a click lost while the app is busy would leave the cursor where
        it was), ctrl+home goes to its first row, down to the row."""
        index = 0

        def header() -> tuple[int, int] | None:
            nonlocal index
            found = self.table_rows(pane_title, pattern)
            if found is None:
                return None
            (row, column), _, index = found
            return column + 4, row

        self.click_into(pane_title, header)
        self.keys("C-Home", *(["Down"] * index))

    def click_body(self, pane_title: str, below: int = 2) -> None:
        """Click inside a pane, ``below`` lines under its first (its table, under the summary and
        header lines), so that the pane's keys reach it."""
        def body() -> tuple[int, int] | None:
            rows = self.pane_rows(pane_title)
            return (rows[below][1] + 2, rows[below][0]) if len(rows) > below else None

        self.click_into(pane_title, body)

    def do(self, step: RecordedStep) -> None:
        """Make ``step`` with keys and clicks."""
        kind, arg = step.kind, step.arg
        if kind == "start":
            return
        if kind == "key":
            self.focus_source()
            self.keys(arg)
        elif kind == "focus":
            self.focus_source()
            self.keys("g")
            self.wait(lambda: "Go to CUDA focus" in self.tmux.screen(), "the focus dialog")
            self.text(arg)
            self.keys("Enter")
        elif kind == "console":
            self.show("console")
            row = self.click_text(r"gdb command|^\s*:|│:")
            self.text(arg)
            self.wait(lambda: arg in self.lines()[row], f"{arg} typed into the console's input")
            self.keys("Enter")  # the console took it when its input is empty again
            self.wait(lambda: arg not in self.lines()[row], f"the console to take {arg}")
        elif kind == "frame":
            self.show("stack")
            self.cursor_to("Stack", rf"^\W*{arg}\s+\S")
            self.keys("Enter")
        elif kind == "pane":
            self.show(arg)
        elif kind == "shared":
            self.show("shared")
            self.click_body("Shared")
            self.keys("a")
            self.wait(lambda: "shared array, e.g." in self.tmux.screen(), "the shared array's input")
            self.text(arg)
            self.keys("Enter")
        elif kind == "watch":
            self.show("warps")
            self.click_body("Warps")
            self.keys("w")
            self.wait(lambda: "expression evaluated in every lane" in self.tmux.screen(), "the warp watch's input")
            self.text(arg)
            self.submit(lambda: f"warp watch {arg}" in self.tmux.screen(), f"the warp watch {arg} taken")
        elif kind in ("condition", "delete", "disable"):
            number, _, condition = arg.partition(" ")
            self.show("breakpoints")
            self.cursor_to("Breaks", rf"^\W*{number}\s")
            if kind == "delete":
                self.keys("d")
            elif kind == "disable":
                self.keys("Space")
            else:
                self.keys("e")
                self.wait(lambda: "e.g. threadIdx.x == 5" in self.tmux.screen(), "the condition's input")
                self.text(condition)
                self.keys("Enter")
        elif kind == "sanitize":
            self.keys("C-p")
            self.wait(lambda: "Search" in self.tmux.screen(), "the command palette")
            self.text("Sanitize")
            self.wait(lambda: "compute-sanitizer memcheck" in self.tmux.screen(), "the palette's Sanitize")
            self.keys("Enter")
            self.wait(lambda: "RECORDED" in self.tmux.screen(), "the recorded report")
        elif kind == "debug":
            self.show("sanitizer")
            self.cursor_to("Sanitize", r"^\s*\d+\s+\S")
            sides = race_sides("\n".join(self.pane("Sanitize")))
            self.keys("d")
            if sides:  # a race on two lines (tile.cu:37/28): d asks which side; the recording took the first
                self.wait(lambda: self.side_chooser_shows(sides), f"the race's side dialog offering 1 {sides[0]}, 2 {sides[1]}")
                self.keys("1")

    def side_chooser_shows(self, sides: tuple[str, str]) -> bool:
        """Whether the dialog ``d`` opens on a race asks which side, numbering each side's line
        (``1  Read   tile.cu:37  box3x3``)."""
        screen = self.tmux.screen()
        return "Debug which side of the race?" in screen and all(
            re.search(rf"\b{number}\s+\S+\s+{re.escape(place)}\b", screen) for number, place in zip("12", sides))

    def submit(self, taken: Callable[[], bool], why: str) -> None:
        """Enter in an input, again if the app did not take it (an enter the busy app dropped:
        the input stays open with the text), as a user does, until ``taken()``."""
        def entered() -> bool:
            self.keys("Enter")
            return within(taken, 5.0, every=0.2) is not None

        self.wait(entered, why)

    def check(self, step: RecordedStep) -> None:
        """Wait until the screen shows the step's recorded stop (source, focus, Stack, Locals; of
        Stack and Locals the one shown first)."""
        state = step.state
        assert state is not None, f"step {step.number} has no recorded stop state"
        def shown() -> bool:  # the focus is in the status bar at 80x24: a notification over it is clicked away
            missing = self.shows(state)
            if missing and missing[-1].startswith("focus "):
                status = len(self.lines()) - 2
                self.dismiss_notification(range(status, status + 1))
            return not missing

        self.wait(shown, f"step {step.number} ({step.keys}) to show {state}")
        if state.exit:
            return
        panes = [("stack", lambda: self.stack_shows(state), f"the Stack pane to show {state.func} {state.file}:{state.line}"),
                 ("locals", lambda: self.locals_show(state), f"the Locals pane to list {state.locals}")]
        if self.tab_shown("Locals"):  # 80x24, Locals shown: it first, then one tab switch to Stack, not two
            panes.reverse()
        for pane, shows, why in panes:
            self.show(pane)
            self.wait(shows, why)
